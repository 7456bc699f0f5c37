"""Modern naval, issue 30: rules the kit delivered wrongly or left out, each against the text.

Numbers are the rule text's (/work/shared/rules/modern-naval.txt, section numbers cited);
chances are checked against brute-force enumeration of the dice (``itertools.product``,
exact fractions), written out here apart from ``rules.yaml``; pages are read back from
the PDF.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import pdfplumber
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from generator.cli.main import main
from generator.core.units import MM
from generator.rulesets.modern_naval import combat, detection
from generator.rulesets.modern_naval.commands import modern_odds
from generator.rulesets.modern_naval.model import Conditions, UnitView, WeaponView
from generator.rulesets.modern_naval.tables import Tables, bundled_tables
from tests.paths import ROOT

if TYPE_CHECKING:
    from tests.conftest import Kits

D10 = range(1, 11)
D20 = range(1, 21)
SCENARIOS = ROOT / "shipdata" / "modern_naval" / "scenarios"


@pytest.fixture(scope="module")
def tables() -> Tables:
    """The bundled tables."""
    return bundled_tables()


def lines_of(pdf: bytes | Path) -> list[str]:
    """Every text line of a PDF, whitespace collapsed."""
    doc = pdfium.PdfDocument(pdf)
    out = []
    for page in doc:
        out += [" ".join(line.split()) for line in page.get_textpage().get_text_range()
                .splitlines()]
    return out


def d20(modifier: int, needed: int = 11) -> Fraction:
    """Brute force: one d20 plus the modifier reaching the score (the DEFAULT 11)."""
    return Fraction(sum(1 for (f,) in itertools.product(D20) if f + modifier >= needed), 20)


def refused(args: list[str], tmp_path: Path) -> list[str]:
    """A build refused: exit 2, no files, no traceback; the message lines."""
    out = tmp_path / "out"
    result = CliRunner().invoke(main, [*args, "--out", str(out), "-q"])
    assert result.exit_code == 2, result.output
    assert not out.exists() and "Traceback" not in result.output
    return [line for line in result.output.splitlines() if line and not line.startswith("error")]


def copy(tmp_path: Path, scenario: str, *edits: tuple[str, str]) -> Path:
    """A data folder holding the bundled scenario with ``edits`` made."""
    data = tmp_path / "data"
    data.mkdir()
    text = (SCENARIOS / f"{scenario}.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    (data / f"{scenario}.yaml").write_text(text, encoding="utf-8")
    return data


# -- 1. radar reach is not capped by the tactical visibility (4.7 against 4.8) -------------------


def test_radar_reach_ignores_visibility_visual_does_not(tables: Tables) -> None:
    from generator.rulesets.modern_naval.reference import render_reference
    from generator.rulesets.modern_naval.resolution import render_resolution

    # 4.7: a very small searcher reaches 60 cm, +20 cm against an aircraft contact, and
    # nothing there names the visibility; at Latakia (night, 30 cm) the card must not halve it.
    boat = UnitView(id="b", name="b", category="ship", size="very-small", fcs=2)
    night = Conditions(sea_state=2, night=True)
    radar = detection.attempt(tables, "radar", boat, night, range_cm=60)
    air = detection.attempt(tables, "radar", boat, night, range_cm=80, target_aircraft=True)
    assert radar is not None and radar.limit_cm == 60
    assert air is not None and air.limit_cm == 80
    text = " ".join(lines_of(render_reference(tables, "a4", "t").pdf))
    assert ("The farthest a unit may try to detect: this distance (ships by size, aircraft by "
            "altitude); the tactical visibility does not shorten it.") in text
    # 4.8: visual identification alone is "the lowest of" the visibility and the distance.
    assert ("The farthest a unit may try to identify: the lower of the tactical visibility and "
            "this distance (ships by size, aircraft by altitude).") in text
    odds = " ".join(lines_of(render_resolution(tables, "a4", "t").pdf))
    assert "The tactical visibility may cut a visual attempt shorter, never a radar one." in odds
    assert "may cut it shorter" not in odds


# -- 2. sea states the tables do not reach are refused ----------------------------------------


def test_sea_state_eight_is_refused_where_it_is_written(tmp_path: Path) -> None:
    # 4.7 and 6.2 stop at sea state 6: a sea state 8 has no rules, so it may not pass for calm.
    data = copy(tmp_path, "latakia-1973", ("sea_state: 2", "sea_state: 8"))
    lines = refused(["build", "latakia-1973", "--data", str(data)], tmp_path)
    assert lines == [f"{data / 'latakia-1973.yaml'}:7:12: sea_state: found 8, expected a "
                     "number of at most 6"]
    bad = CliRunner().invoke(modern_odds, ["--kind", "gun", "--sea-state", "7"])
    assert bad.exit_code == 2 and "7 is not in the range 0<=x<=6" in bad.output


# -- 3. radar without FCS is no better than a 1st-generation FCS (DEFAULT) ---------------------


@pytest.mark.parametrize("fcs", [None, 1, 2, 3])
def test_radar_detection_by_fcs(tables: Tables, fcs: int | None) -> None:
    # 4.7: 1st generation -1, 3rd +1, 2nd nothing; no FCS: quarterdeck's -1 (DEFAULT).
    shift = {None: -1, 1: -1, 2: 0, 3: 1}[fcs]
    unit = UnitView(id="u", name="u", category="ship", size="small", crew=1, fcs=fcs)
    a = detection.attempt(tables, "radar", unit, Conditions(sea_state=4))
    assert a is not None
    # Crew +1, sea state 4 -1; 6 or more on the d10 succeeds.
    wins = sum(1 for (f,) in itertools.product(D10) if f + 1 - 1 + shift >= 6)
    assert a.chance == Fraction(wins, 10)
    assert any(label == "No FCS" for label, _ in a.modifiers) == (fcs is None)


def test_no_fcs_row_is_printed_as_default(tables: Tables) -> None:
    from generator.rulesets.modern_naval.reference import render_reference

    assert "No FCS (DEFAULT) - 1" in lines_of(render_reference(tables, "a4", "t").pdf)


# -- 4. aircraft altitude, contact forms, enough radar contacts -----------------------------------


def test_altitude_is_given_printed_and_bounded(kits: Kits, tmp_path: Path) -> None:
    folder = kits.build("sheffield-1982").folder
    uk = " ".join(lines_of(folder / "uk.pdf"))
    argentina = " ".join(lines_of(folder / "argentina.pdf"))
    # The set-up: the Sea Harrier pair at medium altitude, the Super Étendards low.
    assert "CAP pair lead (Sea Harrier FRS1, Royal Navy): 2 weapon fit(s), starts at medium " \
        "altitude" in uk
    # 4.7 and 4.8 read an aircraft's altitude: 100/50 cm low, 120/60 medium, 140/70 high.
    assert "medium (start): radar 120, visual 60 cm" in uk
    assert "low (start): radar 100, visual 50 cm" in argentina
    assert "high: radar 140, visual 70 cm" in argentina
    for level, radar, visual in (("LOW", 100, 50), ("MEDIUM", 120, 60), ("HIGH", 140, 70)):
        assert f"ALTITUDE {level} radar {radar} cm visual {visual} cm" in argentina
    data = copy(tmp_path, "sheffield-1982", ("{class: type-21, name: Arrow}",
                                             "{class: type-21, name: Arrow, altitude: low}"))
    lines = refused(["build", "sheffield-1982", "--data", str(data)], tmp_path)
    assert len(lines) == 1 and lines[0].endswith(
        "sides.0.units.3.altitude: found 'low' for the ship 'Arrow', expected no altitude "
        "(only aircraft and helicopters fly)")
    assert lines[0].startswith(f"{data / 'sheffield-1982.yaml'}:")


def test_contacts_say_aircraft_and_radar_contacts_cover_every_contact() -> None:
    from generator.data.library import load_library
    from generator.kit.seam import KitOptions, Request
    from generator.rulesets.modern_naval import RULESET
    from generator.rulesets.modern_naval.markers import markers

    ctx = RULESET.prepare(load_library(), Request("kit", scenario="sheffield-1982"), "a4",
                          KitOptions(seed=1))
    counts: dict[str, dict[str, int]] = {}
    for side in ("uk", "argentina"):
        counts[side] = {}
        for piece in markers(ctx, side).pieces:
            if piece.group in ("contact", "radar-contact"):
                form = "air" if "Air" in piece.title else "surface"
                key = f"{piece.group}:{form}"
                counts[side][key] = counts[side].get(key, 0) + piece.quantity
    # 4.7/4.8 read whether a contact is an aircraft (+20 cm, +10 cm), so it has its own form.
    # UK: five ships and three aircraft, two dummies (one, 2 x 3/8 rounded, flies);
    # Argentina: three aircraft and three dummies, all flying. A radar contact for each.
    assert counts["uk"] == {"contact:surface": 6, "contact:air": 4,
                            "radar-contact:surface": 6, "radar-contact:air": 4}
    assert counts["argentina"] == {"contact:air": 6, "radar-contact:air": 6}


# -- 5. SAMs and CIWS against incoming missiles -------------------------------------------------


def sam_vs_missile(crew: int, fires: int, seeker: str) -> Fraction:
    """6.8: no ECM 0 (DEFAULT), crew, SAM vs Missile Target -5, -1 per fire (CMD, SARH)."""
    burn = fires if seeker.split(" ")[0] in ("CMD", "SARH") else 0
    return d20(crew - 5 - burn)


def ciws_vs_missile(crew: int, fcs: int | None, sea: int) -> Fraction:
    """6.2 as a ship gun against a very small air target (DEFAULT): size -4, FCS, sea."""
    gen = {None: 0, 1: 2, 2: 3, 3: 4}[fcs]
    return d20(crew - 4 + gen + {4: -4, 5: -5, 6: -6}.get(sea, 0))


@pytest.mark.parametrize(("crew", "fires", "seeker"),
                         [(-2, 0, "IR"), (0, 2, "SARH"), (2, 1, "CMD (R)"), (1, 3, "ARH")])
def test_sam_against_a_missile(tables: Tables, crew: int, fires: int, seeker: str) -> None:
    # Any SAM may: 6.8 names "SAM vs Missile Target" without exception (Sea Dart's data
    # lists air and surface only).
    sam = WeaponView(name="s", kind="sam", seeker=seeker,  # type: ignore[arg-type]
                     generation=2 if seeker in ("ARH", "SARH") else None,
                     targets=frozenset({"air", "surface"}))
    ship = UnitView(id="u", name="u", category="ship", size="medium", crew=crew, weapons=(sam,))
    shot = combat.against_missile(tables, ship, sam, Conditions(shooter_fires=fires))
    assert shot is not None and shot.chance == sam_vs_missile(crew, fires, seeker)


@pytest.mark.parametrize(("crew", "fcs", "sea"), [(0, None, 3), (1, 2, 4), (-1, 3, 6)])
def test_ciws_against_a_missile(tables: Tables, crew: int, fcs: int | None, sea: int) -> None:
    ciws = WeaponView(name="c", kind="ciws", targets=frozenset({"air"}))
    ship = UnitView(id="u", name="u", category="ship", size="medium", crew=crew, fcs=fcs,
                    weapons=(ciws,))
    shot = combat.against_missile(tables, ship, ciws, Conditions(sea_state=sea))
    assert shot is not None and shot.chance == ciws_vs_missile(crew, fcs, sea)


def test_modern_odds_asks_the_anti_missile_steps() -> None:
    sam = CliRunner().invoke(modern_odds, ["--kind", "sam", "--seeker", "SARH", "--generation",
                                           "2", "--target", "missile", "--crew", "1",
                                           "--fires", "1"])
    assert sam.exit_code == 0, sam.output
    p = sam_vs_missile(1, 1, "SARH")
    assert f"Chance to hit: {float(p) * 100:.1f}% ({p})" in sam.output
    assert "SAM vs Missile Target" in sam.output and "A hit stops the missile" in sam.output
    ciws = CliRunner().invoke(modern_odds, ["--kind", "ciws", "--target", "missile", "--fcs",
                                            "3", "--sea-state", "5"])
    p = ciws_vs_missile(0, 3, 5)
    assert ciws.exit_code == 0 and f"({p})" in ciws.output


def test_sheffield_prints_incoming_missile_odds(kits: Kits, tables: Tables) -> None:
    folder = kits.build("sheffield-1982").folder
    uk = lines_of(folder / "uk.pdf")
    # Type 42s (crew +1): Sea Dart (SARH) against the Exocet, no fires.
    from generator.rules.dice import percent

    row = next(line for line in uk if line.startswith("Sea Dart (GWS30) 16-296 incoming"))
    assert row.startswith(f"Sea Dart (GWS30) 16-296 incoming missile "
                          f"{percent(sam_vs_missile(1, 0, 'SARH'))} ")
    umpire = " ".join(lines_of(folder / "umpire.pdf"))
    assert "Incoming missiles: SAMs (5b) and CIWS (5d)" in umpire
    # Crew +2, CIWS with a 3rd-generation FCS: sea state 3 or less.
    head = next(line for line in lines_of(folder / "umpire.pdf") if line.startswith("+2 ")
                and line.count("%") == 6)
    assert head.split()[1:] == [percent(sam_vs_missile(2, 0, "IR")),
                                percent(sam_vs_missile(2, 1, "SARH")),
                                *[percent(ciws_vs_missile(2, f, 3)) for f in (None, 1, 2, 3)]]


# -- 6. launchers, engines, an aircraft's fate, impossible attacks ------------------------------


def test_every_launcher_gets_its_knock_out_box(kits: Kits) -> None:
    folder = kits.build("latakia-1973").folder
    texts = [p.get_textpage().get_text_range() for p in pdfium.PdfDocument(folder / "israel.pdf")]
    index = next(i for i, t in enumerate(texts) if "Gabriel Mk I ×7" in t)
    # Reshef carries seven Gabriel launchers: seven boxes on the Gabriel row (7.1: every
    # weapon rolls on its own), 2.72 mm square and 3.32 mm apart.
    with pdfplumber.open(folder / "israel.pdf") as plumb:
        page = plumb.pages[index]
        word = next(w for w in page.extract_words() if w["text"] == "Gabriel")
        middle = (word["top"] + word["bottom"]) / 2
        boxes = sorted((r for r in page.rects if r["x1"] < word["x0"]
                        and abs((r["top"] + r["bottom"]) / 2 - middle) < 3 * MM
                        and abs(r["width"] - 2.72 * MM) < 0.01 * MM), key=lambda r: r["x0"])
        assert len(boxes) == 7
        gaps = [b["x0"] - a["x0"] for a, b in zip(boxes, boxes[1:], strict=False)]
        assert all(abs(g - 3.32 * MM) < 0.01 * MM for g in gaps)
        # 7.2: a propulsion failure lowers the top speed for good, apart from repairable loss.
        text = page.extract_text()
        assert "Speed 5: lost" in text and "Engines: top speed" in text
        assert "−1 for good" in text


def test_modern_odds_answers_an_aircrafts_fate() -> None:
    # 7.3: light damage sends it off the table; worse is lost. Gun +1 against an aircraft
    # of damage +0 with one marker (+1): d10 +2.
    out = CliRunner().invoke(modern_odds, ["--kind", "gun", "--target", "aircraft",
                                           "--weapon-damage", "1", "--markers", "1"])
    assert out.exit_code == 0, out.output
    score = [f + 2 for (f,) in itertools.product(D10)]
    leaves = Fraction(sum(1 for s in score if 1 <= s <= 3), 10)
    lost = Fraction(sum(1 for s in score if s >= 4), 10)
    assert f"leaves the table, may return   10.0% ({leaves})" in out.output
    assert f"lost (aborted or shot down)    90.0% ({lost})" in out.output
    assert "one system knocked out" not in out.output


@pytest.mark.parametrize(("args", "message"), [
    (["--kind", "torpedo", "--target", "aircraft"],
     "--target: found aircraft for a torpedo, expected ship or submarine (a torpedo runs in "
     "the water)"),
    (["--kind", "missile"],
     "--seeker: found nothing for a missile, expected one of ARH, SARH, CMD (V), CMD (R), "
     "CMD (Wire), IR (a missile reads its seeker's row)"),
    (["--kind", "missile", "--seeker", "ARH", "--generation", "2", "--target", "missile"],
     "--kind: found missile against an incoming missile, expected one of sam, ciws, gun"),
])
def test_impossible_attacks_are_refused(args: list[str], message: str) -> None:
    out = CliRunner().invoke(modern_odds, args)
    assert out.exit_code == 2 and message in out.output and "Traceback" not in out.output


# -- 7. DEFAULTs through the one label; player pages name no option -----------------------------


def test_player_pages_name_no_option_and_label_defaults_one_way(kits: Kits) -> None:
    folder = kits.build("sheffield-1982").folder
    for side in ("uk.pdf", "argentina.pdf"):
        text = " ".join(lines_of(folder / side))
        assert "--tables" not in text and "rating.yaml" not in text
        assert "(DEFAULT:" not in text    # never a hand-made "(DEFAULT: ...)"
        assert "* quarterdeck DEFAULT: the rule text prints no unit or weapon data" in text
    umpire = " ".join(lines_of(folder / "umpire.pdf"))
    assert "A --tables file replaces any of these files' tables" in umpire
