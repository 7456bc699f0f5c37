"""A ``--tables`` file is held to the rules' own needs, and every fault is located (issue 20).

Each test writes one crafted tables file, runs it through the command line (a NAVAL
ACTION ``build`` or a Surface Action ``tables``) and asserts exit 2, the exact
``file:line:column: path: found X, expected Y`` line, and that nothing was written. Before
these checks each of these files either crashed a build (exit 70) or was accepted and
printed nonsense.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.core.errors import DataError
from generator.data.datamodel import Nation
from generator.rules.tables import TableSet
from generator.rulesets.naval_action.cardtables import load_tables
from tests.engine.test_hardening_load import invoke
from tests.paths import ROOT

CARD = (ROOT / "generator" / "rulesets" / "naval_action" / "tables"
        / "action-card.yaml").read_text(encoding="utf-8")
CHARTS = (ROOT / "generator" / "rulesets" / "surface_action" / "tables"
          / "charts.yaml").read_text(encoding="utf-8")
NAVIES = ", ".join(n.value for n in Nation)
POSITIONS = "BOW, C, STN, L, R, LB, RB, LS, RS"
TYPES = "BB, BC, CV, CVL, CVE, CA, CL, CLAA, DL, DD, DE, TB, SS, AK, AP"


def section(text: str, key: str) -> str:
    """One top-level key of a bundled tables file, with its whole body."""
    start = text.index(f"\n{key}:\n") + 1
    end = min((i for i in (text.find(f"\n{k}", start + 1) for k in "abcdefghijklmnopqrstuvwxyz")
               if i != -1), default=len(text))
    return text[start:end] + "\n"


def where(text: str, needle: str) -> str:
    """``line:column`` (1-based) of the first ``needle`` in ``text``."""
    before = text[:text.index(needle)]
    return f"{before.count(chr(10)) + 1}:{len(before) - before.rfind(chr(10))}"


def refused(tmp_path: Path, text: str, needle: str, message: str,
            ruleset: str = "naval-action") -> None:
    """The file is refused with exit 2 and exactly one line at ``needle``; nothing written."""
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    args = (["build", "savo-island", "--tables", str(path), "--out", str(out)]
            if ruleset == "naval-action"
            else ["tables", "river-plate", "--tables", str(path), "--out", str(out)])
    result = invoke(*args)
    assert result.exit_code == 2, result.output
    assert f"{path}:{where(text, needle)}: {message}" in result.output.splitlines(), (
        result.output)
    assert not out.exists() or not any(out.rglob("*")), sorted(out.rglob("*"))


# --- NAVAL ACTION: one table, refused where the fault is -------------------------------

# case: (file text, where the message points, message after "FILE:line:col: ")
ONE_TABLE = {
    # Empty tables the rules index.
    "empty turn_costs": (
        "turn_costs: {per_degrees: 60, by_scale: []}\n", "[]",
        "turn_costs.by_scale: found a list, expected at least 1 item(s)"),
    "empty caliber_factor": (
        "caliber_factor: []\n", "[]",
        "caliber_factor: found a list, expected at least 1 item(s)"),
    "empty battery_arcs": (
        "battery_arcs: {}\n", "{}",
        f"battery_arcs: found no {POSITIONS}, expected an entry for every battery position "
        f"({POSITIONS})"),
    "empty comparative strength": (
        "comparative_strength_by_type: {}\n", "{}",
        f"comparative_strength_by_type: found no {TYPES}, expected an entry for every ship "
        f"type ({TYPES})"),
    # Zero divisors.
    "range band over 0": (
        "range_bands: {close: [1, 0], medium: [2, 3]}\n", "0]",
        "range_bands.close.1: found 0, expected a number of at least 1"),
    "close beyond medium": (
        "range_bands: {close: [3, 4], medium: [2, 3]}\n", "{",
        "range_bands: found a mapping, expected close range a smaller share of the maximum "
        "than medium range, and medium at most the whole (1/1)"),
    "0 rounds per turn": (
        "ammunition: {rounds_per_turn_by_caliber_factor: {1: 20, 2: 0}}\n", "0}",
        "ammunition.rounds_per_turn_by_caliber_factor.2: found 0, expected a number of at "
        "least 1"),
    "0 guns per AA point": (
        "aa_factor: {guns_per_point: 0, min_bore_in: 2.95, max_bore_in: 5.25}\n", "0,",
        "aa_factor.guns_per_point: found 0, expected a number of at least 1"),
    "victory share over 0": (
        "victory: {heavy_damage_share: [1, 0]}\n", "0]",
        "victory.heavy_damage_share.1: found 0, expected a number of at least 1"),
    "weather roll without faces": (
        "visibility: {good_yd: 24000, poor_yd: 30000, bad_yd: 20000, roll: {}}\n",
        "{}", "visibility.roll: found a mapping, expected a change for every face 1 to 6"),
    # Names that name nothing.
    "unknown navy": (
        "damage_control_navies: {always_good: [UK, AUS], good_from: {}}\n", "AUS",
        f"damage_control_navies.always_good.1: found 'AUS', expected a navy code: {NAVIES}; "
        "did you mean 'US'?"),
    "navies under the card's key": (
        "damage_control: {always_good: [UK], good_from: {}}\n", "damage_control",
        "damage_control: found which navies have Good damage control, expected the Action "
        "Card's table (good, poor, rerolls); did you mean 'damage_control_navies'?"),
    "crush depth off the depths": (
        "crush_depth: {DE: AB, default: T}\n", "AB",
        "crush_depth.DE: found 'AB', expected one of the depths: P, D, R, T, Ab; did you "
        "mean 'Ab'?"),
}


@pytest.mark.parametrize("case", ONE_TABLE)
def test_one_table_refused(tmp_path: Path, case: str) -> None:
    text, needle, message = ONE_TABLE[case]
    refused(tmp_path, text, needle, message)


def test_misspelt_battery_position(tmp_path: Path) -> None:
    arcs = section((ROOT / "generator" / "rulesets" / "naval_action" / "tables"
                    / "derivation.yaml").read_text(encoding="utf-8"), "battery_arcs")
    refused(tmp_path, arcs.replace("  RS:", "  RSS:"), "RSS",
            f"battery_arcs.RSS: found unknown key 'RSS', expected a battery position: "
            f"{POSITIONS}; did you mean 'RS'?")


# --- NAVAL ACTION: nonsense the card used to print -------------------------------------

def test_penetration_steps_without_sunk(tmp_path: Path) -> None:
    text = section(CARD, "penetration").replace('steps: {"(D)": 1, D: 1, HD: 2, S: 3}',
                                                'steps: {"(D)": 1, D: 1, HD: 2}')
    refused(tmp_path, text, '{"(D)"',
            "penetration.steps: found no S, expected the damage steps of every result the "
            "rows give")


@pytest.mark.parametrize("face", [99, -1])
def test_penetration_row_off_the_die(tmp_path: Path, face: int) -> None:
    text = section(CARD, "penetration").replace("    7: [", f"    {face}: [")
    refused(tmp_path, text, f"{face}:",
            f"penetration.rows.{face}: found die face {face}, expected a face from 1 to 7 "
            "(rows past 6 are reached only by a shift up of 1)")


def test_accuracy_track_starting_at_12(tmp_path: Path) -> None:
    text = section(CARD, "accuracy").replace("  start: 6", "  start: 12")
    refused(tmp_path, text, "12\n", "accuracy.start: found 12, expected a number of at most 6")


def test_descending_aa_columns(tmp_path: Path) -> None:
    text = section(CARD, "aa_results").replace("[3, 7, 12, 18, 27, 42]",
                                               "[42, 27, 18, 12, 7, 3]")
    refused(tmp_path, text, "[42",
            "aa_results.columns: found a list, expected AA totals in strictly increasing "
            "order, not 42, 27, 18, 12, 7, 3")


def test_negative_torpedo_run(tmp_path: Path) -> None:
    text = section(CARD, "torpedo_runs").replace("18: 4000", "18: -4000")
    refused(tmp_path, text, "-4000",
            "torpedo_runs.yards_per_turn.18: found -4000, expected a number of at least 1")


def test_torpedo_run_missing_a_size(tmp_path: Path) -> None:
    text = section(CARD, "torpedo_runs").replace("{18: 4000, ", "{")
    refused(tmp_path, text, "{21",
            "torpedo_runs.yards_per_turn: found no 18, expected an entry for every torpedo "
            "size in inches (18, 21, 24)")


# --- NAVAL ACTION: the card's damage-control table can be replaced ---------------------

def test_the_cards_damage_control_table_is_overridable(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("damage_control:\n"
                    "  good: {1: R, 2: R, 3: R, 4: R, 5: R, 6: R}\n"
                    "  poor: {1: C, 2: C, 3: C, 4: C, 5: C, 6: C}\n"
                    "  rerolls: {}\n", encoding="utf-8")
    result = invoke("tables", "--tables", str(path), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.output
    card = next((tmp_path / "out").rglob("action-card*.pdf"))
    text = "\n".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(card))
    block = text[text.index("DAMAGE CONTROL"):]
    assert "FROM house.yaml" in block[:200]
    # Every Good roll repairs and every Poor roll only controls: the odds say so.
    assert "Good R 100%" in " ".join(block.split()), block[:1200]
    # The navies' rules are untouched by it.
    assert load_tables(path).rules.damage_control.always_good == ["UK", "AU", "CA", "NZ", "IN"]


def long_accuracy(tmp_path: Path) -> Path:
    """A file whose accuracy modifiers are too many and too long for the card's front."""
    mods = "\n".join(f'    - {{number: {n}, label: "House rule number {n} with a long label '
                     f'that wraps", value: -1}}' for n in range(1, 41))
    body = section(CARD, "accuracy")
    path = tmp_path / "long.yaml"
    path.write_text(body[:body.index("  modifiers:\n")] + "  modifiers:\n" + mods + "\n"
                    + body[body.index("  multi_hits:"):], encoding="utf-8")
    return path


def test_an_overflowing_card_names_the_users_table(tmp_path: Path) -> None:
    path = long_accuracy(tmp_path)
    tables = load_tables(path)
    problem = tables.locate(("accuracy", "penetration"), "found more than fits")
    assert str(problem) == f"{path}:1:1: accuracy: found more than fits"
    # A section whose tables the file left alone points at the first table it gives.
    assert str(tables.locate(("victory",), "x")) == f"{path}:1:1: accuracy: x"


def test_an_overflowing_card_is_located_through_the_cli(tmp_path: Path) -> None:
    path = long_accuracy(tmp_path)
    result = invoke("tables", "--tables", str(path), "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.output
    assert any(line.startswith(f"{path}:1:1: accuracy: found more than fits")
               for line in result.output.splitlines()), result.output


# --- Surface Action: names one chart gives that another must hold ----------------------

COLUMNS = section(CHARTS, "columns")


@pytest.mark.parametrize(("old", "new", "needle", "message"), [
    ("BB: [gunfire, BB/BC]", "BB: [gunfire, BB/BCC]", "BB/BCC",
     "columns.gunfire.BB.1: found 'BB/BCC', expected a column of the 'gunfire' chart: "
     "BB/BC, CA, CL/AKL, DD/TB/AKS; did you mean 'BB/BC'?"),
    ("BB: [gunfire, BB/BC]", "BB: [gunfir, BB/BC]", "gunfir,",
     "columns.gunfire.BB.0: found 'gunfir', expected a damage chart: gunfire, carrier, "
     "torpedo; did you mean 'gunfire'?"),
    ("CL: [torpedo, CL]", "CL: [torpedo, word]", "word",
     "columns.torpedo.CL.1: found 'word', expected a column of the 'torpedo' chart: "
     "BB/BC/CV, CA/CVL, CL, DD/TB/CVE"),
    ("AKS: [torpedo, DD/TB/CVE]", "AKS: [word, DD/TB/CVE]", "word",
     "columns.torpedo_defaults.AKS.0: found 'word', expected a damage chart: gunfire, "
     "carrier, torpedo"),
])
def test_column_entries_name_a_chart_and_its_column(tmp_path: Path, old: str, new: str,
                                                    needle: str, message: str) -> None:
    assert old in COLUMNS
    refused(tmp_path, COLUMNS.replace(old, new), needle, message, "surface-action")


def test_every_type_reads_a_torpedo_column(tmp_path: Path) -> None:
    text = COLUMNS.replace("    AKS: [torpedo, DD/TB/CVE]\n", "")
    refused(tmp_path, text, "gunfire:", "columns: found no torpedo entry for AKS, expected "
            "every ship type in columns.torpedo or columns.torpedo_defaults", "surface-action")


def test_replaced_charts_keep_the_columns_the_bundled_entries_read(tmp_path: Path) -> None:
    text = ("damage_charts:\n  gunfire:\n    title: Gunfire\n    columns: [BB/BC, CA, CL/AKL, "
            "DD/TB/AKS]\n    rows: [[P, P, P, P], [P, P, P, P], [P, P, P, P], [P, P, P, P], "
            "[P, P, P, P], [P, P, P, P]]\n")
    refused(tmp_path, text, "gunfire:",
            "damage_charts: found no column 'CV' in a chart 'carrier', expected one, as the "
            "bundled columns.gunfire.CV reads it (or give columns too)", "surface-action")


def test_night_sighting_same_as_names_a_navy_with_a_value(tmp_path: Path) -> None:
    text = "night_sighting: {values: {JP: 4, UK: 3}, other: 2, same_as: {AU: UKK}}\n"
    refused(tmp_path, text, "UKK",
            "night_sighting.same_as.AU: found 'UKK', expected a navy given a value: JP, UK; "
            "did you mean 'UK'?", "surface-action")


def test_night_sighting_defaults_name_a_navy_with_a_value(tmp_path: Path) -> None:
    text = "night_sighting: {values: {JP: 4, UK: 3}, other: 2, defaults: [word]}\n"
    refused(tmp_path, text, "word",
            "night_sighting.defaults.0: found 'word', expected a navy given a value: JP, UK",
            "surface-action")


def test_maneuver_names_every_generation(tmp_path: Path) -> None:
    refused(tmp_path, "maneuver: {early: {half: 0.0}}\n", "{early",
            "maneuver: found no regular, advanced, expected an entry for every fire-control "
            "generation (early, regular, advanced)", "surface-action")


def test_zero_knots_per_inch(tmp_path: Path) -> None:
    text = section(CHARTS, "movement").replace("knots_per_in: 6", "knots_per_in: 0")
    refused(tmp_path, text, "0\n  small", "movement.knots_per_in: found 0, expected a number "
            "greater than 0", "surface-action")


# -- one loader for the tables in force (issue 28): every ruleset's TableSet ---------------

def _sets() -> dict[str, TableSet]:
    """Each ruleset's tables in force, as its loader reads them."""
    from generator.rulesets.modern_naval.tables import TABLE_SET as MODERN
    from generator.rulesets.naval_action.cardtables import TABLE_SET as NAVAL_ACTION
    from generator.rulesets.naval_warfare.ruletables import TABLE_SET as NAVAL_WARFARE
    from generator.rulesets.rule27.tables import TABLE_SET as RULE27
    from generator.rulesets.surface_action.charts import TABLE_SET as SURFACE_ACTION

    return {"naval-action": NAVAL_ACTION, "surface-action": SURFACE_ACTION,
            "modern-naval": MODERN, "naval-warfare": NAVAL_WARFARE, "rule27": RULE27}


@pytest.mark.parametrize("ruleset", ["naval-action", "surface-action", "modern-naval",
                                     "naval-warfare", "rule27"])
def test_every_ruleset_names_an_unknown_table_where_it_stands(tmp_path: Path,
                                                              ruleset: str) -> None:
    tables = _sets()[ruleset]
    path = tmp_path / "house.yaml"
    path.write_text("# house rules\nno_such_table: 3\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        tables.load(path)
    (problem,) = caught.value.problems
    assert (problem.file, problem.line, problem.column, problem.path) == (
        str(path), 2, 1, "no_such_table")
    assert problem.message.startswith("found unknown key 'no_such_table'")
    # Untouched by a file, the tables in force are the bundled instances themselves.
    bundled = tables.bundled()
    assert all(bundled[f.model] is f.read() for f in tables.files)


@pytest.mark.parametrize(("ruleset", "model", "key", "yaml_text"), [
    ("naval-warfare", "SupplyTable", "round", "round: up\n"),
    ("naval-warfare", "CounterMix", "lsp_spares", "lsp_spares: 0\n"),
    ("modern-naval", "DataTables", "rating", None),
    ("rule27", "NavalTables", "sea_box_hexes", "sea_box_hexes: 7\n"),
])
def test_one_file_replaces_one_table_and_leaves_the_others_bundled(
        tmp_path: Path, ruleset: str, model: str, key: str, yaml_text: str | None) -> None:
    import yaml

    tables = _sets()[ruleset]
    target = next(f for f in tables.files if f.model.__name__ == model)
    if yaml_text is None:  # the bundled table, at another ground scale
        given = target.read().model_dump(mode="json")[key]
        given["metres_per_cm"] = given["metres_per_cm"] * 2
        yaml_text = yaml.safe_dump({key: given})
    path = tmp_path / "house.yaml"
    path.write_text("\n" + yaml_text, encoding="utf-8")
    found = tables.load(path)
    assert found.replaced == (key,) and found.source == path
    assert found.positions == {key: (2, 1)}
    assert found[target.model].model_dump(mode="json")[key] == yaml.safe_load(yaml_text)[key]
    assert found[target.model] != target.read()
    for other in tables.files:
        if other is not target:
            assert found[other.model] is other.read()


def test_the_two_halves_of_a_ruleset_read_one_file_alike(tmp_path: Path) -> None:
    """Naval Warfare's rule tables and its campaign tables take their keys of one file."""
    from generator.rulesets.naval_warfare import ruletables
    from generator.rulesets.naval_warfare.ruletables import tables_in_force

    path = tmp_path / "house.yaml"
    path.write_text("round: up\nlsp_spares: 0\n", encoding="utf-8")
    supply, mix = tables_in_force(path)
    assert (supply.round, mix.lsp_spares) == ("up", 0)
    assert ruletables.load(path) == ruletables.bundled()  # a supply key is no rule table's
    path.write_text("round: sideways\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        ruletables.load(path)
    assert [(p.line, p.path) for p in caught.value.problems] == [(1, "round")]
    assert caught.value.problems[0].message.startswith("found 'sideways', expected")


# -- one way to mark DEFAULT (issue 28): rules.defaults, kept by the one loader ----------

def test_a_table_the_user_replaces_is_no_longer_a_default(tmp_path: Path) -> None:
    from generator.rulesets.rule27.tables import bundled_tables, load_tables

    assert bundled_tables().defaults == ["half_aa", "flip_hits", "markers", "default_strength"]
    path = tmp_path / "house.yaml"
    path.write_text("half_aa: half\n", encoding="utf-8")
    mine = load_tables(path)
    assert (mine.half_aa, mine.defaults) == ("half", ["flip_hits", "markers",
                                                      "default_strength"])
    assert not mine.is_default("half_aa") and mine.is_default("markers")
    # ... unless the user's file marks it again (its own list replaces the bundled one).
    path.write_text("half_aa: half\ndefaults: [half_aa]\n", encoding="utf-8")
    assert load_tables(path).defaults == ["half_aa"]


def test_a_default_key_must_be_text_of_a_key(tmp_path: Path) -> None:
    from generator.rulesets.rule27.tables import load_tables

    path = tmp_path / "house.yaml"
    path.write_text("defaults: half_aa\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_tables(path)
    assert [(p.line, p.column, p.path) for p in caught.value.problems] == [(1, 11, "defaults")]
    assert caught.value.problems[0].message.startswith("found 'half_aa', expected")


def test_one_label_for_every_default() -> None:
    from generator.rules.defaults import is_default, label, mark
    from generator.rulesets.modern_naval.tables import bundled_tables as modern
    from generator.rulesets.naval_warfare.campaign import load_supply

    assert (label(True), label(False)) == (" (DEFAULT)", "")
    assert (mark("Very Large", True), mark("Large", False)) == ("Very Large (DEFAULT)", "Large")
    # The flag on a mapping the kit chose whole, the list on one whose entries it chose.
    assert is_default(modern().to_hit) and is_default(load_supply(), "round")
    assert not is_default(load_supply(), "supply")


def test_naval_action_marks_its_designed_tables_one_way(tmp_path: Path) -> None:
    from generator.rulesets.naval_action.components.card_parts import tags_for

    bundled = load_tables()
    # A card table flags itself; derivation.yaml lists the tables it designed.
    assert [tags_for(bundled, [n]) for n in ("accuracy", "caliber_factor", "aa_results")] \
        == [["DEFAULT"], ["DEFAULT"], []]
    derivation = (ROOT / "generator" / "rulesets" / "naval_action" / "tables"
                  / "derivation.yaml").read_text(encoding="utf-8")
    path = tmp_path / "house.yaml"
    path.write_text(section(derivation, "caliber_factor"), encoding="utf-8")
    mine = load_tables(path)
    assert mine.rules.defaults == ["comparative_strength_by_type", "comparative_strength"]
    assert tags_for(mine, ["caliber_factor"]) == ["FROM house.yaml"]


def test_a_replaced_to_hit_score_is_no_longer_labelled_default(tmp_path: Path) -> None:
    from generator.rulesets.modern_naval.reference import render_reference
    from generator.rulesets.modern_naval.tables import Tables, bundled_tables
    from generator.rulesets.modern_naval.tables import load_tables as modern_tables
    from tests.pdftext import page_texts

    def to_hit_page(tables: Tables) -> str:
        pages = page_texts(render_reference(tables, "a4", "test").pdf)
        return " ".join(next(p for p in pages if "To hit" in p).split())

    bundled = to_hit_page(bundled_tables())
    assert "To hit (DEFAULT)" in bundled and "d20 11+ (DEFAULT)" in bundled
    path = tmp_path / "house.yaml"
    path.write_text("to_hit: {die: d20, score: 12, by_kind: {}, no_ecm: 0, "
                    "missile_size: very-small}\n", encoding="utf-8")
    mine = to_hit_page(modern_tables(path))
    assert "To hit (DEFAULT)" not in mine and "12+ (DEFAULT)" not in mine
    assert "beat. A hit needs a modified d20 of 12 or more" in mine and "d20 12+" in mine


def test_a_precheck_problem_and_a_model_problem_are_reported_together(tmp_path: Path) -> None:
    # The precheck (a navy list where the card's damage-control table belongs) used to stop
    # the check before the models saw the rest of the file: every problem at once.
    path = tmp_path / "both.yaml"
    path.write_text("damage_control:\n  always_good: [US]\nmessages:\n  visual_range_yd: far\n",
                    encoding="utf-8")
    with pytest.raises(DataError) as caught:
        load_tables(path)
    said = [f"{p.line}:{p.column}: {p.path}" for p in caught.value.problems]
    assert said == ["1:1: damage_control", "4:20: messages.visual_range_yd"]
