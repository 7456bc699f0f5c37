"""Rule 27: ratings, the order of battle, counters and overlay read back from the PDF, the
exact bombing calculator against brute force, and bad input through the command line."""

from __future__ import annotations

import ctypes
import math
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner

from generator.cli.main import main
from generator.core.units import MM
from generator.kit.pipeline import BuildResult, build, validated_library
from generator.rulesets.rule27.bombing import Unit, allocation_order, fates, parse_stack
from generator.rulesets.rule27.rating import rules
from generator.rulesets.rule27.tables import bundled_tables
from tests.paths import ROOT

if TYPE_CHECKING:
    from tests.conftest import Kits

SCENARIO = "mediterranean-1940"
ORDER = ["NT", "AF", "CF", "SF"]


# -- one build per configuration, shared ------------------------------------------------

@pytest.fixture(scope="module")
def kit(kits: Kits) -> BuildResult:
    return kits.build(SCENARIO)


@pytest.fixture(scope="module")
def kit58(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("r27big")
    run = CliRunner().invoke(main, ["rule27", SCENARIO, "--counter", "0.625in", "--hex", "12mm",
                                    "--out", str(out)])
    assert run.exit_code == 0, run.output
    return out / SCENARIO


def _text(path: Path) -> list[str]:
    """Each page's text, after the packet's print note (page 1 of a packet of several)."""
    pdf = pdfium.PdfDocument(path)
    pages = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    return pages[1:] if pages and "How to print this packet" in pages[0] else pages


def _paths(page: Any) -> list[list[tuple[float, float]]]:
    """Every path object's points, in page coordinates (points)."""
    out = []
    for obj in page.get_objects(max_depth=5):
        if obj.type != pdfium_c.FPDF_PAGEOBJ_PATH:
            continue
        m = obj.get_matrix()
        points = []
        for i in range(pdfium_c.FPDFPath_CountSegments(obj.raw)):
            seg = pdfium_c.FPDFPath_GetPathSegment(obj.raw, i)
            x, y = ctypes.c_float(), ctypes.c_float()
            pdfium_c.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y))
            points.append((m.a * x.value + m.c * y.value + m.e,
                           m.b * x.value + m.d * y.value + m.f))
        out.append(points)
    return out


def _squares(page: Any) -> list[float]:
    """Sides (mm) of the filled square path objects on a page (counter grounds)."""
    sides = []
    for obj in page.get_objects(max_depth=5):
        if obj.type == pdfium_c.FPDF_PAGEOBJ_PATH:
            left, bottom, right, top = obj.get_bounds()
            w, h = (right - left) / MM, (top - bottom) / MM
            if abs(w - h) < 1e-3 and w > 8:
                sides.append(w)
    return sides


# -- ratings from the one library --------------------------------------------------------

def test_battleship_strength_follows_the_documented_rule() -> None:
    library = validated_library([])
    qe = library.classes_of("rule-27")["queen-elizabeth"]
    facts = qe.facts
    table = rules()
    guns = sum(Fraction(b.guns) * Fraction(str(b.bore_in)) ** 3 for b in facts.guns) / 1000
    armour = Fraction(str(facts.armor.belt_in)) + Fraction(str(facts.armor.deck_in))
    assert qe.model.points == guns + armour
    assert qe.model.type == "BB"
    assert library.classes_of("rule-27")["littorio"].model.type == "BC"  # 1940: modern BB
    ark = library.classes_of("rule-27")["ark-royal"].model
    assert ark.air_capacity == round(Fraction(60, table.aircraft_per_strength))
    assert library.unrated["rule-27"]["gato"] == "Rule 27 has no submarine counters"


def test_oob_counters_and_their_ratings(kit: BuildResult) -> None:
    pages = _text(kit.folder / "british.pdf")
    oob = pages[0]
    # QE: 8 x 15in (27.0) + belt 13 + deck 3 = 45.59 points; the square root is 6.75 -> 7
    assert "\n1 BB Warspite 7 2 9 -" in oob
    assert "\n5 CV Eagle (2) 1 12 -" in oob
    assert "\n6 CL Orion, Neptune 4 3 12 2 / 3" in oob
    assert "\n10 NT Malta convoy (x3) 1 0 6 -" in oob
    italian = _text(kit.folder / "italian.pdf")[0]
    # Zara: 8 x 8in (4.10) + 5.9 + 2.8 = 12.80 a ship; the pair's root is 5.06 -> 5;
    # AA 12 x 3.9in / 20 = 2.34 a ship, 4.68 -> 5
    assert "\n5 CA Zara, Fiume 5 5 12 2 / 5" in italian


def test_packets_and_manifest(kit: BuildResult) -> None:
    assert set(kit.files) == {"british.pdf", "italian.pdf", "referee.pdf", "back-offset-check.pdf"}
    referee = "\n".join(_text(kit.folder / "referee.pdf"))
    assert "Order of battle: Royal Navy" in referee and "Order of battle: Regia Marina" in referee
    assert "Cut on the grey lines" not in referee  # the referee gets no counter sheets
    # the worksheet prints the calculator's exact answer for the text's example
    assert "The hits go to NT, then SF, then NT." in referee
    assert "NT/1 8 25.0% - 25.0%" in referee and "CL/4 1 50.0% 0 0" in referee
    assert "Royal Navy BB counters 1 6" in referee and "Regia Marina DD counters" in referee
    manifest = "\n".join(_text(kit.folder / "british.pdf"))
    # 6 BB, 1 BC, 2 CV, 2 CL, 3 DD, 3 NT on the British sheets
    for line in ["Royal Navy BB counters 1 6", "Royal Navy BC counters 1 1",
                 "Royal Navy CV counters 1 2", "Royal Navy CL counters 2 (half back) 2",
                 "Royal Navy DD counters 2 (half back) 3", "Royal Navy NT counters 1 3",
                 "Royal Navy Task Force markers (TF 1-8) 2 (unknown / known) 8"]:
        assert line in manifest


# -- counters and overlay, read back from the PDF -----------------------------------------

def _sheet_pages(path: Path) -> list[int]:
    """Indexes (in the whole PDF, print note included) of the counter-sheet pages."""
    pdf = pdfium.PdfDocument(path)
    pages = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    return [i for i, t in enumerate(pages) if "Cut on the grey lines" in t or "Backs of sheet" in t]


def test_counters_are_half_an_inch_exactly(kit: BuildResult) -> None:
    pdf = pdfium.PdfDocument(kit.folder / "british.pdf")
    front = _sheet_pages(kit.folder / "british.pdf")[0]
    sides = _squares(pdf[front])
    # 15 counter lines (the convoy is 3 copies) plus 18 hit (1/2, 3/4, 5/6: the largest
    # strength is 7), 8 TF and 8 cargo markers
    assert len([s for s in sides if abs(s - 12.7) <= 0.01]) == 17 + 18 + 8 + 8
    # ... and the naval-step tracks' ten 40 mm boxes in the room the counters leave
    # (pdfium bounds a stroked box with its line: 40 mm plus the line width)
    assert len([s for s in sides if 40 <= s < 40.5]) == 10 and all(
        abs(s - 12.7) <= 0.01 or 40 <= s < 40.5 for s in sides)


def test_five_eighths_counters_and_overlay_from_the_options(kit58: Path) -> None:
    pdf = pdfium.PdfDocument(kit58 / "british.pdf")
    front = _sheet_pages(kit58 / "british.pdf")[0]
    sides = [s for s in _squares(pdf[front]) if s < 30]  # not the tracks (40 mm)
    assert sides and all(abs(s - 15.875) <= 0.01 for s in sides)
    _check_overlay(kit58 / "referee.pdf", 12.0)


def _check_overlay(path: Path, hex_mm: float) -> None:
    pdf = pdfium.PdfDocument(path)
    pages = [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]
    index = next(i for i, t in enumerate(pages) if "Sea-box overlay" in t
                 and "How to print this packet" not in t)
    assert f"a sea box is 5 hexes: {5 * hex_mm:g} mm" in pages[index]
    hexes = [p for p in _paths(pdfium.PdfDocument(path)[index]) if len(p) == 7]
    assert hexes
    flats = 5 * hex_mm
    for points in hexes:
        ys = [y for _, y in points]
        xs = [x for x, _ in points]
        assert abs((max(ys) - min(ys)) / MM - flats) <= 0.01
        assert abs((max(xs) - min(xs)) / MM - 2 * flats / math.sqrt(3)) <= 0.01


def test_overlay_is_five_map_hexes_across(kit: BuildResult) -> None:
    _check_overlay(kit.folder / "british.pdf", 16.0)


def test_half_side_rounding_comes_from_the_tables(tmp_path: Path) -> None:
    from generator.pieces.faces import derived_values
    from generator.rulesets.rule27.pieces import layouts
    from generator.rulesets.rule27.tables import load_tables

    up = tmp_path / "up.yaml"
    up.write_text("half_round: up\n", encoding="utf-8")
    tables = load_tables(up)
    layout = layouts(0.5 * 72, tables)["ship-half"]
    assert derived_values(layout, {"strength": 3, "aa": 2})["strength"] == 2
    layout = layouts(0.5 * 72, bundled_tables())["ship-half"]
    assert derived_values(layout, {"strength": 3, "aa": 2})["strength"] == 1
    assert not tables.is_default("half_round")


# -- the bombing calculator ---------------------------------------------------------------

def _brute(units: list[Unit], hits: int) -> list[tuple[Fraction, Fraction, Fraction]]:
    """Every pick, ship by ship (no grouping), each afloat counter of the category alike."""
    n = len(units)
    totals = [[Fraction(0)] * 3 for _ in range(n)]

    def alive(state: tuple[int, ...], i: int) -> bool:
        return state[i] < units[i].strength

    def walk(state: tuple[int, ...], left: int, due: list[str], p: Fraction) -> None:
        if left == 0 or not any(alive(state, i) for i in range(n)):
            for i, u in enumerate(units):
                sunk = state[i] >= u.strength
                totals[i][0] += p * (state[i] > u.damage)
                totals[i][1] += p * (u.half and not sunk and 2 * state[i] >= u.strength)
                totals[i][2] += p * sunk
            return
        if not due:
            due = [c for c in ORDER if any(alive(state, i) and units[i].category == c
                                           for i in range(n))]
        targets = [i for i in range(n) if units[i].category == due[0] and alive(state, i)]
        for i in targets:
            new = list(state)
            new[i] += 1
            walk(tuple(new), left - 1, due[1:], p / len(targets))

    walk(tuple(u.damage for u in units), hits, [], Fraction(1))
    return [(a, b, c) for a, b, c in totals]


def _compare(stack: str, hits: int) -> None:
    units = parse_stack(stack, bundled_tables())
    brute = _brute(units, hits)
    result = {f.unit: f for f in fates(units, hits, ORDER)}
    for unit, (hit, flip, sunk) in zip(units, brute, strict=True):
        fate = result[unit]
        assert (fate.hit, fate.flipped, fate.sunk) == (hit, flip, sunk), (stack, unit)


def test_the_texts_example_eight_transports_a_cruiser_and_a_destroyer() -> None:
    units = parse_stack("8 NT, CL, DD", bundled_tables())
    assert allocation_order(units, 3, ORDER) == ["NT", "SF", "NT"]
    result = {f.unit.type: f for f in fates(units, 3, ORDER)}
    # two NT hits on two different NTs of eight; the SF hit on the CL or the DD
    assert result["NT"].sunk == Fraction(2, 8)
    # the tables' CL is 4 (this kit's pairs are 3 and 4): one hit of 4 does not flip it
    assert result["CL"].hit == Fraction(1, 2) and result["CL"].flipped == 0
    assert result["DD"].hit == Fraction(1, 2) and result["DD"].sunk == 0
    _compare("8 NT, CL, DD", 3)


@pytest.mark.parametrize(("stack", "hits"), [
    ("8 NT, CL, DD", 5),
    ("2 NT, LS, CVE, CA/3+1, BB/5+2", 6),
    ("LC, 2 LS, CV/3, DD/2, DD/3", 7),
    ("3 NT", 5),
])
def test_probabilities_equal_brute_force(stack: str, hits: int) -> None:
    _compare(stack, hits)


def test_a_battleship_with_two_hits_sinks_after_three_more() -> None:
    (fate,) = fates(parse_stack("BB/5+2", bundled_tables()), 3, ORDER)
    assert fate.sunk == 1


def test_bombing_command() -> None:
    run = CliRunner().invoke(main, ["bombing", "--stack", "8 NT, CL, DD", "--hits", "3"])
    assert run.exit_code == 0, run.output
    assert "allocation while nothing is sunk: NT -> SF -> NT" in run.output
    assert "NT/1             8    25.00%         -    25.00%   hit 1/4, sunk 1/4" in run.output
    assert "CL/4             1    50.00%         0         0   hit 1/2, sunk 0" in run.output


def test_bombing_command_refuses_a_bad_stack() -> None:
    run = CliRunner().invoke(main, ["bombing", "--stack", "8 NTT, CL", "--hits", "3"])
    assert run.exit_code == 2
    assert "--stack: found type 'NTT', expected one of BB, BC, CA, CL, DD, CV, CVE, LS, LC, " \
           "NT; did you mean 'NT'?" in run.output


# -- bad input: located, exit 2, nothing written --------------------------------------------

BAD = """\
kind: scenario
ruleset: rule-27
id: bad-oob
name: Bad
date: 1940-06-30
counter_size: {size}
hex: {hex}
sides:
  - id: a
    name: A
    forces:
      - name: F
        counters:
          - {{type: CA, class: zara, ships: [Zara, Fiume, Gorizia]}}
          - {{type: BB, class: revenge, ships: [Ramillies], strength: 0}}
  - id: b
    name: B
    forces:
      - name: G
        counters:
          - {{type: CL, class: giussano, ships: [Alberto di Giussano, Alberico da Barbiano]}}
"""

GOOD = BAD.replace("Zara, Fiume, Gorizia", "Zara, Fiume").replace(", strength: 0", "")


def _run(tmp_path: Path, text: str, *args: str) -> tuple[Any, Path]:
    data = tmp_path / "data"
    data.mkdir()
    (data / "bad-oob.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    run = CliRunner().invoke(main, [*args, "bad-oob", "--data", str(data), "--out", str(out)])
    return run, out


def test_odd_pair_and_zero_strength_are_located(tmp_path: Path) -> None:
    run, out = _run(tmp_path, BAD.format(size="0.5in", hex="16mm"), "build")
    assert run.exit_code == 2
    lines = run.output.splitlines()
    assert any(line.endswith("bad-oob.yaml:14:44: sides.0.forces.0.counters.0.ships: found 3 "
                             "ships, expected 2 (a CA counter is a pair of heavy cruisers)")
               for line in lines), run.output
    assert any(line.endswith("bad-oob.yaml:15:70: sides.0.forces.0.counters.1.strength: found "
                             "0, expected a strength of at least 1 (a BB is a combat ship: its "
                             "strength is its damage strength)") for line in lines), run.output
    assert not out.exists()


def test_counter_too_small_for_its_text(tmp_path: Path) -> None:
    run, out = _run(tmp_path, GOOD.format(size="8mm", hex="16mm"), "build")
    assert run.exit_code == 2
    assert any(line.endswith("bad-oob.yaml:6:15: counter_size: found '8mm', expected a "
                             "counter size that holds its numbers at 6 pt (these do not "
                             "fit: CA, 5, 12, BB, 7, 2)") for line in run.output.splitlines()), \
        run.output
    assert not out.exists()


def test_hex_below_five_mm(tmp_path: Path) -> None:
    run, out = _run(tmp_path, GOOD.format(size="0.5in", hex="4mm"), "build")
    assert run.exit_code == 2
    assert any(line.endswith("bad-oob.yaml:7:6: hex: found '4mm', expected a hex size of at "
                             "least 5mm") for line in run.output.splitlines()), run.output
    assert not out.exists()


def test_options_are_located_at_the_option(tmp_path: Path) -> None:
    run, out = _run(tmp_path, GOOD.format(size="0.5in", hex="16mm"), "rule27", "--hex",
                    "4.9mm")
    assert run.exit_code == 2
    assert "--hex: found '4.9mm', expected a hex size of at least 5mm" in run.output
    assert not out.exists()
    run = CliRunner().invoke(main, ["rule27", SCENARIO, "--counter", "7mm", "--out",
                                    str(out)])
    assert run.exit_code == 2
    assert run.output.startswith("--counter: found '7mm', expected a counter size that holds "
                                 "its numbers at 6 pt"), run.output
    assert not out.exists()


def test_a_zero_strength_override_is_located(tmp_path: Path) -> None:
    source = ROOT / "shipdata/classes/uk/leander.yaml"
    text = source.read_text(encoding="utf-8").replace("ratings:\n", "ratings:\n  rule-27: "
                                                      "{points: 0}\n", 1)
    (tmp_path / "leander.yaml").write_text(text, encoding="utf-8")
    run = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert run.exit_code == 2
    assert any(line.endswith("leander.yaml:65:21: ratings.rule-27.points: found 0, expected "
                             "points above 0 (a CL is a combat ship: its strength is its combat "
                             "and damage strength)") for line in run.output.splitlines()), \
        run.output


def test_class_proof_shows_the_derivation(tmp_path: Path) -> None:
    run = CliRunner().invoke(main, ["build", "--class", "takao", "--ruleset", "rule-27",
                                    "--out", str(tmp_path)])
    assert run.exit_code == 0, run.output
    pages = _text(tmp_path / "class-takao" / "rule-27" / "takao.pdf")
    assert "Counter CA: Takao, Atago" in pages[0]
    # 2 x (8 x 8in 5.12 + belt 4 + deck 1.4 + 16 tubes x 0.1) = 22.64; root 4.76 -> 5
    assert ("Strength 5 (square root of the counter's points rounded half up, at least 2)"
            in pages[0])
    # the back of the pair is its half-strength side: 5 rounded down to 2
    back = next(p for p in pages if "Backs of sheet" in p)
    assert "CA 2 2" in back and "CA 5 2" not in back  # type, strength, AA


AMPHIBIOUS = """\
kind: scenario
ruleset: rule-27
id: salerno-test
name: Landing test
date: 1943-09-01
sides:
  - id: allied
    name: Allies
    forces:
      - name: Southern attack force
        counters:
          - {type: CVE, class: casablanca, ships: [Casablanca, Anzio]}
          - {type: LS, name: LSI group, count: 2}
          - {type: LC, name: LST flotilla}
          - {type: NT, name: Follow-up convoy, count: 4}
  - id: axis
    name: Axis
    forces:
      - name: Cover
        counters:
          - {type: BC, class: littorio, ships: [Roma]}
"""


def test_amphibious_and_escort_carrier_counters(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "salerno-test.yaml").write_text(AMPHIBIOUS, encoding="utf-8")
    result = build("salerno-test", data=[data], out=tmp_path / "out")
    oob = _text(result.folder / "allied.pdf")[0]
    assert "\n1 CVE Casablanca, Anzio (4) 1 9 (2) / 1" in oob
    assert "\n2 LS LSI group (x2) 1 0 6 -" in oob
    assert "\n3 LC LST flotilla 1 0 3 -" in oob
    pdf = pdfium.PdfDocument(result.folder / "allied.pdf")
    front = _sheet_pages(result.folder / "allied.pdf")[0]
    # 1 CVE + 2 LS + 1 LC + 4 NT + 18 hit (Roma's 7 needs 5/6) + 8 TF + 8 cargo markers
    sides = [s for s in _squares(pdf[front]) if s < 30]  # not the tracks (40 mm)
    assert len(sides) == 42 and all(abs(s - 12.7) <= 0.01 for s in sides)


def test_the_calculator_follows_the_users_tables(tmp_path: Path) -> None:
    tables = tmp_path / "order.yaml"
    tables.write_text("categories:\n  - {id: SF, title: Surface}\n  - {id: CF, title: Carrier}\n"
                      "  - {id: AF, title: Amphibious}\n  - {id: NT, title: Transport}\n"
                      "default_strength: {BB: 5, BC: 5, CA: 3, CL: 3, DD: 2, CV: 3, CVE: 2, "
                      "LS: 1, LC: 1, NT: 1}\n", encoding="utf-8")
    run = CliRunner().invoke(main, ["bombing", "--stack", "8 NT, CL, DD", "--hits", "3",
                                    "--tables", str(tables)])
    assert run.exit_code == 0, run.output
    assert "allocation while nothing is sunk: SF -> NT -> SF" in run.output
    # two SF hits: on the CL/3 twice (1/4), or once each (1/2), or the DD twice (1/4, sunk)
    assert "DD/2             1    75.00%    50.00%    25.00%   hit 3/4, sunk 1/4" in run.output


def test_force_h_destroyer_counter_names_its_flotillas_whole(kit: BuildResult) -> None:
    """The Force H destroyer counter's first line reads '8th/13th DF' on the sheet;
    written '8th and 13th Flotillas' it was cut to '8. a. 13th Flotillas' to fit, and at the
    6 pt floor '8th/13th Flotillas' lost the 13th ('8. Flotillas')."""
    pdf = pdfium.PdfDocument(kit.folder / "british.pdf")
    sheet = pdf[_sheet_pages(kit.folder / "british.pdf")[0]].get_textpage().get_text_range()
    lines = [line.strip() for line in sheet.splitlines()]
    assert "8th/13th DF" in lines
    assert not any(line.startswith("8. ") for line in lines)


def test_counter_labels_but_names_are_6pt_or_larger(kit: BuildResult) -> None:
    """At 1/2 in, the type, strength, AA, movement and every marker label print at 6 pt
    or more (the type once shrank to 5.7 pt, CARGO and the TF side to 5.5 pt); only the
    two ship-name lines go smaller."""
    path = kit.folder / "british.pdf"
    page = pdfium.PdfDocument(path)[_sheet_pages(path)[0]]
    tp = page.get_textpage()
    smallest: dict[str, float] = {}
    word, size = "", 99.0
    for i in range(tp.count_chars() + 1):
        ch = tp.get_text_range(i, 1) if i < tp.count_chars() else " "
        at = float(pdfium_c.FPDFText_GetFontSize(tp.raw, i)) if ch.strip() else 0.0
        if not ch.strip() or at < 2:  # piece ids are printed at 1 pt for the tests
            if word:
                smallest[word] = min(smallest.get(word, 99.0), size)
            word, size = "", 99.0
            continue
        word, size = word + ch, min(size, at)
    for label in ("CL", "DD", "BB", "BC", "CV", "NT", "HITS", "CARGO", "RE", "Navy",
                  "unknown", "12", "(2)"):
        assert label in smallest, label
        assert smallest[label] >= 6 - 0.005, (label, smallest[label])
