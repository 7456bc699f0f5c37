"""Rule 27, issue 30: true names on counters, ratings by the text's meaning, what the kit
must print, and the catalog's values.

Rule text: /work/shared/rules/rule27-strategic-naval.txt (cited below as "A1", "B3"...).
"""

from __future__ import annotations

import ctypes
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from click.testing import CliRunner

from generator.cli.main import main
from generator.core.units import MM
from generator.kit.pipeline import BuildResult, validated_library
from generator.rulesets.rule27.model import rate_counter, short_spellings
from generator.rulesets.rule27.rating import derive, r27_type, rules
from generator.rulesets.rule27.tables import bundled_tables

if TYPE_CHECKING:
    from generator.data.library import Library
    from tests.conftest import Kits

SCENARIO = "mediterranean-1940"


@pytest.fixture(scope="module")
def kit(kits: Kits) -> BuildResult:
    return kits.build(SCENARIO)


@pytest.fixture(scope="module")
def library() -> Library:
    return validated_library([])


def _pages(path: Path) -> list[str]:
    pdf = pdfium.PdfDocument(path)
    return [pdf[i].get_textpage().get_text_range() for i in range(len(pdf))]


def _manifest(path: Path) -> str:
    """The side packet's counter-manifest page, wherever the recipe puts it."""
    return next(t for t in _pages(path) if t.startswith("Counter manifest"))


def _page(path: Path, marker: str) -> int:
    return next(i for i, t in enumerate(_pages(path)) if marker in t
                and "How to print this packet" not in t)


def _words(page: Any) -> dict[str, float]:
    """Every word on a page with the smallest type size it is set in."""
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
    return smallest


# -- 1. counters print true names ------------------------------------------------------------

def test_flotillas_print_a_short_name_that_keeps_its_numeral_and_their_number(
        kit: BuildResult) -> None:
    """A flotilla's counter prints '9th Sq.' and 'No. 3' at 6 pt or more; the order of battle
    prints the whole name and every ship beside No. 3. No label is shrunk below 6 pt."""
    assert not [w for w in kit.warnings if "below 6 pt" in w], kit.warnings
    path = kit.folder / "italian.pdf"
    sheet = pdfium.PdfDocument(path)[_page(path, "HITS")]
    lines = [line.strip() for line in sheet.get_textpage().get_text_range().splitlines()]
    for n, short in [(3, "9th Sq."), (4, "14th Sq."), (10, "10th Sq."), (11, "11th Sq."),
                     (12, "12th Sq."), (13, "13th Sq.")]:
        assert short in lines and any(line.startswith(f"No. {n} ") or line == f"No. {n}"
                                      for line in lines), (short, lines)
    sizes = _words(sheet)
    for word in ("Sq.", "9th", "14th", "No.", "Bande", "Colleoni", "Barbiano", "Cavour"):
        assert sizes[word] >= 6 - 0.005, (word, sizes[word])
    # no name cut to a form nobody could look up (the sheet's own note ends two sentences)
    assert {w for w in sizes if w.endswith(".")} <= {"Sq.", "No.", "lines.", "page."}, sizes
    oob = _pages(path)[1]
    assert ("\n3 DD 9th Squadriglia: Alfredo Oriani, Vittorio Alfieri, Giosuè Carducci, "
            "Vincenzo Gioberti 2 0 12 1 / 0") in oob


def test_british_flotillas_too(kit: BuildResult) -> None:
    path = kit.folder / "british.pdf"
    sheet = _pages(path)[_page(path, "HITS")]
    lines = [line.strip() for line in sheet.splitlines()]
    assert "2nd Flot." in lines and "14th Flot." in lines and "8th/13th DF" in lines
    # one ship's name too long for a line takes both, split between words, never cut
    assert "Royal" in lines and "Sovereign 9" in lines and not any("So." in x for x in lines)
    oob = _pages(path)[1]
    assert "\n8 DD 2nd Flotilla: Hyperion, Hasty, Hero, Hereward, Hostile, Havock 3 0 12" in oob


def test_a_ship_shortens_only_to_words_of_her_own_name() -> None:
    aka = {"Bande Nere": "Giovanni delle Bande Nere", "Italia": "Littorio",
           "Giovanni Bande": "Giovanni delle Bande Nere", "Cavour": "Conte di Cavour"}
    assert short_spellings("Giovanni delle Bande Nere", aka) == ("Bande Nere",)
    assert short_spellings("Conte di Cavour", aka) == ("Cavour",)
    assert short_spellings("Littorio", aka) == ()  # a later name is not a shortening


def _scenario(tmp_path: Path, counter: str) -> Any:
    data = tmp_path / "data"
    data.mkdir()
    (data / "short-test.yaml").write_text(f"""\
kind: scenario
ruleset: rule-27
id: short-test
name: Short test
date: 1940-06-30
sides:
  - id: a
    name: A
    forces:
      - name: F
        counters:
          - {counter}
  - id: b
    name: B
    forces:
      - name: G
        counters:
          - {{type: BB, class: revenge, ships: [Ramillies]}}
""", encoding="utf-8")
    return CliRunner().invoke(main, ["build", "short-test", "--data", str(data), "--out",
                                     str(tmp_path / "out")])


def test_a_short_form_that_drops_the_numeral_is_refused(tmp_path: Path) -> None:
    run = _scenario(tmp_path, "{type: DD, name: 14th Squadriglia, short: Squadr., "
                              "class: soldati, ships: [Artigliere, Aviere, Camicia Nera, "
                              "Geniere]}")
    assert run.exit_code == 2, run.output
    assert any(line.endswith("short-test.yaml:12:55: sides.0.forces.0.counters.0.short: found "
                             "'Squadr.', expected a short form of '14th Squadriglia' that "
                             "keeps its numerals (14)")
               for line in run.output.splitlines()), run.output


def test_an_unnamed_flotilla_prints_its_first_ship_and_how_many_more(tmp_path: Path) -> None:
    run = _scenario(tmp_path, "{type: DD, class: soldati, ships: [Artigliere, Aviere, "
                              "Camicia Nera, Geniere]}")
    assert run.exit_code == 0, run.output
    assert "below 6 pt" not in run.output
    path = tmp_path / "out" / "short-test" / "a.pdf"
    sheet = _pages(path)[_page(path, "HITS")]
    lines = [line.strip() for line in sheet.splitlines()]
    assert "Artigliere +3" in lines and "No. 1 12" in lines
    assert "\n1 DD Artigliere, Aviere, Camicia Nera, Geniere 2 0 12 1 / 0" in _pages(path)[1]


# -- 2. York and Edinburgh, and classes without guns -----------------------------------------

def test_york_and_edinburgh_are_rated_from_their_guns(library: Library) -> None:
    """navypedia: York 3 x 2 203 mm, 4 x 1 102 mm HA, 2 x 3 533 mm tubes, belt 76 mm, deck
    38 mm; Edinburgh 4 x 3 152 mm, 6 x 2 102 mm HA, 2 x 3 tubes, belt 114 mm, deck 51 mm
    over the machinery (warshipsresearch)."""
    classes = library.classes_of("rule-27")
    york = classes["york"].model
    assert york.points == Fraction(6 * 512, 1000) + 3 + Fraction(3, 2) + Fraction(6, 10)
    assert york.aa_points == Fraction(4 * 4, 20)
    edinburgh = classes["edinburgh"].model
    assert edinburgh.points == Fraction(12 * 216, 1000) + Fraction(9, 2) + 2 + Fraction(6, 10)
    assert edinburgh.aa_points == Fraction(12 * 4, 20)
    assert rate_counter("CA", [york, york], bundled_tables()) == (4, 2)  # root 4.04; AA 1.6


def test_a_surface_class_without_guns_is_refused_not_rated_zero(library: Library) -> None:
    facts = library.classes_of("rule-27")["york"].facts
    rating = derive(facts.model_copy(update={"guns": [], "aa_guns": []}))
    assert rating.model is None
    assert rating.unrated == ("the file gives no guns, and a CA's strength is its naval combat "
                              "strength (Rule 27 A1); add its gun batteries, or set "
                              "ratings.rule-27.points")


# -- 3. BC is "battle-cruiser/modern battleship" ---------------------------------------------

@pytest.mark.parametrize(("class_id", "kind"), [
    ("yamato", "BC"), ("south-dakota", "BC"), ("north-carolina", "BC"), ("littorio", "BC"),
    ("king-george-v", "BC"), ("dunkerque", "BC"), ("hood", "BC"), ("renown", "BC"),
    ("kongo", "BC"), ("nelson", "BB"), ("colorado", "BB"), ("conte-di-cavour", "BB"),
    ("queen-elizabeth", "BB"), ("nagato", "BB")])
def test_bc_is_a_battle_cruiser_or_a_modern_battleship(library: Library, class_id: str,
                                                       kind: str) -> None:
    """Rule 27 A: 'BC (battle-cruiser/modern battleship)'. Yamato (27 kn) and South Dakota
    (27.5 kn) are modern battleships, though slower than 28 kn; Kongō was built as a
    battle-cruiser; Nelson (1927) and the rebuilt Cavour (1915) are neither."""
    assert library.classes_of("rule-27")[class_id].model.type == kind


def test_the_modern_battleship_date_is_the_tables(library: Library) -> None:
    yamato = library.classes_of("rule-27")["yamato"].facts
    assert yamato.speed_kn < 28 and r27_type(yamato) == "BC"
    later = yamato.model_copy(update={"ships": [s.model_copy(update={
        "commissioned": rules().modern_battleship_from.replace(year=1935)})
        for s in yamato.ships]})
    assert r27_type(later) == "BB"


# -- 5. June 1940, Zara's AA, distinguished ratings ------------------------------------------

def test_littorio_and_vittorio_veneto_are_not_in_june_1940(kit: BuildResult) -> None:
    """Wikipedia (Vittorio Veneto class, service history): both declared operational on
    2 August 1940."""
    italian = _pages(kit.folder / "italian.pdf")[1]
    assert "\n1 BB Conte di Cavour" in italian and "BC Littorio" not in italian
    assert ("Littorio and Vittorio Veneto: commissioned in April and May 1940, they were "
            "declared operational only on 2 August 1940") in italian.replace("\r\n", " ")


def test_ships_of_the_date_without_a_counter_are_printed(kit: BuildResult) -> None:
    british = _pages(kit.folder / "british.pdf")[1].replace("\r\n", " ")
    assert "Ships of the date without a counter" in british
    assert "HMAS Sydney (Perth class): the 7th Cruiser Squadron's fifth cruiser" in british
    assert "Arethusa (Force H): a CL counter is a pair" in british


def test_zara_has_her_1940_twelve_100mm(library: Library) -> None:
    """Comando Supremo: 12 x 3.9in/47; Trento's own sources: the after 100/47 pair went in
    1937. Twelve 3.9 in guns / 20 = 2.34 AA points a ship, as Trento."""
    classes = library.classes_of("rule-27")
    assert classes["zara"].model.aa_points == Fraction(12 * 39, 10 * 20)
    assert classes["zara"].model.aa_points == classes["trento"].model.aa_points


def test_light_cruiser_pairs_and_flotillas_are_told_apart(kit: BuildResult) -> None:
    """The minimum of 2 (a half side of 1) no longer flattens them: a Town pair outrates a
    Giussano pair, and a J/Tribal flotilla a Soldati one."""
    tables = bundled_tables()
    classes = validated_library([]).classes_of("rule-27")

    def strength(class_id: str, n: int) -> int:
        m = classes[class_id].model
        return rate_counter(m.type, [m] * n, tables)[0]

    assert strength("giussano", 2) == 3 < strength("town", 2) == 4
    assert strength("soldati", 4) == 2 < strength("j-k-n", 5) == 3
    # the square root, exactly: 4 Soldati are 4.08 points, root 2.02 -> 2; a pair of
    # Giussano 7.66, root 2.77 -> 3; QE 45.59, root 6.75 -> 7
    assert strength("queen-elizabeth", 1) == 7


# -- 4. what the kit must print --------------------------------------------------------------

def test_the_kit_says_strength_and_aa_are_quarterdecks(kit: BuildResult) -> None:
    oob = _pages(kit.folder / "british.pdf")[1].replace("\r\n", " ")
    assert ("Strength and AA are quarterdeck's own ratings, not the rule text's: the text "
            "prints them on each counter without saying how they are found.") in oob
    assert "Mediterranean Fleet (starts at Alexandria; commander: Admiral Sir Andrew " \
           "Cunningham)" in oob
    assert "No. 10: Convoys MF.1 and MS.1 from Malta to Alexandria" in oob


def test_reference_prints_carriers_task_forces_and_flips(kit: BuildResult) -> None:
    """A4: only Code C air groups on a CF; capacity = damage strength, -1 per hit. B3: a TF
    is known after gunfire support or fighting coast defences. A3: the flip."""
    text = " ".join(_pages(kit.folder / "referee.pdf")).replace("\r\n", " ")
    assert "a CF bases Code C air groups (rule 23F1) and no others" in text
    assert "its damage strength when undamaged; 1 less for each damage hit it has taken" in text
    assert ("it is still in the hex from which it gave naval gunfire support in the combat "
            "phase just before") in text
    assert ("it is in the hex from which it engaged coast defences in naval combat this "
            "phase") in text
    assert ("When a CA, CL, DD or CVE flips to its half side, take off as many hits as the "
            "flip took strength (full less half); hits beyond that stay on the half side "
            "(DEFAULT).") in text


def test_hit_markers_count_to_the_largest_strength(kit: BuildResult) -> None:
    """The strongest counter is 7 (Warspite): hits 1 to 6 need the 5/6 marker."""
    manifest = _manifest(kit.folder / "british.pdf")
    assert "Royal Navy damage hits (1/2, 3/4, 5/6) 2 18" in manifest


def _segments(page: Any) -> list[list[tuple[float, float]]]:
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


def test_overlay_has_a_registration_cross_on_every_sea_box_centre(kit: BuildResult) -> None:
    path = kit.folder / "referee.pdf"
    index = _page(path, "Sea-box overlay")
    assert "each + is a sea box's centre" in _pages(path)[index].replace("\r\n", " ")
    assert "two or more of its + sit exactly on this sheet's +" in \
        _pages(path)[index].replace("\r\n", " ")
    paths = _segments(pdfium.PdfDocument(path)[index])
    hexes = [p for p in paths if len(p) == 7]
    lines = [p for p in paths if len(p) == 2]
    assert hexes
    for points in hexes:
        cx = sum(x for x, _ in points[:6]) / 6
        cy = sum(y for _, y in points[:6]) / 6
        arms = [p for p in lines if abs((p[0][0] + p[1][0]) / 2 - cx) / MM <= 0.01
                and abs((p[0][1] + p[1][1]) / 2 - cy) / MM <= 0.01]
        assert len(arms) == 2, (cx, cy)
        assert all(abs(abs(p[1][0] - p[0][0]) + abs(p[1][1] - p[0][1]) - 3 * MM) / MM <= 0.01
                   for p in arms)


def test_five_eighths_written_as_a_fraction(tmp_path: Path) -> None:
    run = CliRunner().invoke(main, ["rule27", SCENARIO, "--counter", "5/8in", "--out",
                                    str(tmp_path)])
    assert run.exit_code == 0, run.output
    manifest = _manifest(tmp_path / SCENARIO / "british.pdf")
    assert "(0.625 in) square." in manifest
    run = CliRunner().invoke(main, ["rule27", SCENARIO, "--counter", "5/0in", "--out",
                                    str(tmp_path / "x")])
    assert run.exit_code == 2
    assert run.output.startswith("--counter: found '5/0in', expected a length such as '16mm', "
                                 "'0.5in' or '5/8in'"), run.output


# -- 6. the catalog shows the values ---------------------------------------------------------

def test_catalog_lists_each_classs_rule27_values(tmp_path: Path) -> None:
    run = CliRunner().invoke(main, ["catalog", "--ruleset", "rule-27", "--out", str(tmp_path)])
    assert run.exit_code == 0, run.output
    text = "\n".join(_pages(tmp_path / "catalog-rule-27.pdf"))
    assert "Class Navy Type Points AA points Ships Strength AA Move" in text
    assert "\nZara IT CA 12.80 2.34 2 5 5 12" in text
    assert "\nSoldati IT DD 1.02 0.00 4 / 6 2 / 2 0 / 0 12" in text
    assert "\nYamato JP BC 80.09 3.00 1 9 3 12" in text
    assert "Ark Royal UK CV 9.46 3.60" in text and "1 (5)" in text  # 60 aircraft / 12
    assert "Classes Rule 27 does not rate" in text and "Rule 27 has no submarine counters" in text
