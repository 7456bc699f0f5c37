"""Issue 30, "The one library": what `check` says of a user's classes, scenarios naming a
class their ruleset cannot rate, British radar sets, strict numbers, funnels, Kongō's type."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli.main import main
from generator.data.library import load_library
from generator.data.radarsets import RADAR_SETS
from generator.data.shipclass import ShipClass

ROOT = Path(__file__).resolve().parents[2]
CLASSES = ROOT / "shipdata" / "classes"


def _copy_class(folder: Path, source: str, new_id: str, **replace: str) -> Path:
    """A bundled class file under a new id (and name), with lines replaced as given."""
    text = (CLASSES / source).read_text(encoding="utf-8")
    old_id = Path(source).stem
    text = text.replace(f"\nid: {old_id}\n", f"\nid: {new_id}\n", 1)
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new, 1)
    path = folder / f"{new_id}.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def _check(folder: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, list[str]]:
    """`quarterdeck check FOLDER` run from the folder (files are named from there)."""
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(main, ["check", str(folder)])
    return result.exit_code, result.output.splitlines()


def test_check_of_a_folder_says_who_rates_each_user_class_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _copy_class(tmp_path, "us/fletcher.yaml", "my-fletcher")
    _copy_class(tmp_path, "de/type-1934a.yaml", "my-1934a")
    code, lines = _check(tmp_path, monkeypatch)
    assert code == 0, lines
    bundled = len([p for p in CLASSES.rglob("*.yaml")
                   if re.search(r"^kind: ship-class$", p.read_text(encoding="utf-8"), re.M)])
    reason_na = ("the NAVAL ACTION library leaves these ships out of 'type-1934' (see its "
                 "notes); add gun positions, ranges and rounds to rate them")
    reason_r27 = ("the file gives no guns, and a DD's strength is its naval combat strength "
                  "(Rule 27 A1); add its gun batteries, or set ratings.rule-27.points")
    assert [x for x in lines if not x.startswith("note:")] == [
        "my-1934a.yaml: 'my-1934a' is rated by surface-action",
        f"  naval-action cannot rate it: {reason_na}",
        "  naval-warfare uses no ship classes (its forces are units of its own)",
        "  modern-naval cannot rate it: it rates missile-era classes only",
        f"  rule-27 cannot rate it: {reason_r27}",
        "my-fletcher.yaml: 'my-fletcher' is rated by naval-action, surface-action, rule-27",
        "  naval-warfare uses no ship classes (its forces are units of its own)",
        "  modern-naval cannot rate it: it rates missile-era classes only",
        # Classes, not class x ruleset pairs: every file once.
        f"ok: {bundled + 2} classes (2 of them yours) and 10 scenarios are valid",
    ]
    # The bundled classes' notes are not repeated: one line says where they are.
    notes = [x for x in lines if x.startswith("note:")]
    assert len(notes) == 1 and re.fullmatch(
        r"note: \d+ notes on bundled classes some ruleset cannot rate are left out; "
        r"`quarterdeck check` with no folder lists them", notes[0])
    assert not any("edinburgh" in x or "'gato'" in x for x in lines)


def test_a_scenario_naming_a_class_its_ruleset_cannot_rate_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = (ROOT / "shipdata" / "naval_action" / "scenarios" / "komandorski.yaml")
    text = scenario.read_text(encoding="utf-8").replace("id: komandorski", "id: my-battle", 1)
    text = text.replace("{class: benson, name: Bailey}", "{class: type-1934a, name: Z5 Paul "
                        "Jacobi}", 1)
    (tmp_path / "my-battle.yaml").write_text(text, encoding="utf-8")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "type-1934a" in x)
    column = text.splitlines()[line - 1].index("type-1934a") + 1
    code, lines = _check(tmp_path, monkeypatch)
    assert code == 2
    assert lines[0] == (
        f"my-battle.yaml:{line}:{column}: sides.0.ships.2.class: NAVAL ACTION cannot rate "
        "'type-1934a': the NAVAL ACTION library leaves these ships out of 'type-1934' (see "
        "its notes); add gun positions, ranges and rounds to rate them")
    assert not any("unknown class" in x for x in lines)


def test_speed_as_text_is_refused_as_the_schema_says(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _copy_class(tmp_path, "us/fletcher.yaml", "my-fletcher",
                       **{"speed_kn: 36.5": 'speed_kn: "36.5"'})
    line = path.read_text(encoding="utf-8").splitlines().index('speed_kn: "36.5"') + 1
    code, lines = _check(tmp_path, monkeypatch)
    assert code == 2
    assert lines == [f"my-fletcher.yaml:{line}:11: speed_kn: found '36.5', expected a number",
                     "error: 1 problem in the data"]


def test_a_whole_number_is_still_a_number_of_knots() -> None:
    data = {"position": "L", "guns": 2, "bore_in": 5}
    facts = ShipClass.model_validate({
        "kind": "ship-class", "id": "x", "name": "X", "nation": "UK", "type": "DD",
        "ships": [{"name": "X", "commissioned": dt.date(1940, 1, 1)}], "length_ft": 300,
        "speed_kn": 36, "armor": {"belt_in": 0}, "guns": [data], "sources": ["s"]})
    assert facts.speed_kn == 36.0


@pytest.mark.parametrize(("name", "category"), [
    ("Type 79", "SC"), ("Type 281", "SC"), ("Type 284", "SC"),
    ("Type 271", "SG"), ("Type 273", "SG"), ("Type 277", "SG")])
def test_british_radar_sets_count_as_a_category_every_ruleset_maps(
        tmp_path: Path, name: str, category: str) -> None:
    # Sources: Type 79 and 281 metric air warning (radartutorial.eu; Wikipedia 'Type 281
    # radar'); Type 284 50-cm gun-laying (Deighton); Type 271/273/277 10-cm surface warning
    # (Bournemouth University museum; Wikipedia 'Type 277 radar').
    assert RADAR_SETS[name].category == category
    _copy_class(tmp_path, "uk/dido.yaml", "my-dido",
                **{"{type: SC, fitted: 1940-10-01}": f"{{type: {name}, fitted: 1942-01-01}}"})
    library = load_library([tmp_path])
    assert not library.problems
    facts = library.classes_of("naval-action")["my-dido"].facts
    assert (facts.radar[0].type, facts.radar[0].name) == (category, name)
    # NAVAL ACTION: SC 20,000 yd, SG 30,000 yd (rule text VIII.A.2.a-b).
    from generator.rulesets.naval_action.derive import radar_on
    from generator.rulesets.naval_action.rules import load_rules
    model = library.classes_of("naval-action")["my-dido"].model
    found = radar_on(model, dt.date(1942, 6, 1))
    assert found == category
    assert load_rules().radar_range_yd[found] == {"SC": 20000, "SG": 30000}[category]


def test_every_named_radar_set_carries_its_source() -> None:
    for name, found in RADAR_SETS.items():
        assert re.search(r"\(https?://[^)]+\)", found.source), name
        assert found.category in ("SC", "SG")


def test_an_unknown_radar_set_is_refused_where_it_is_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _copy_class(tmp_path, "uk/dido.yaml", "my-dido",
                       **{"{type: SC, fitted: 1940-10-01}": "{type: Type 999, fitted: "
                                                            "1942-01-01}"})
    text = path.read_text(encoding="utf-8").splitlines()
    line = next(i for i, x in enumerate(text, 1) if "Type 999" in x)
    code, lines = _check(tmp_path, monkeypatch)
    assert code == 2
    assert lines[0].startswith(f"my-dido.yaml:{line}:")
    assert lines[0].endswith("radar.0.type: found 'Type 999', expected SC, SG or a named "
                             "set (" + ", ".join(RADAR_SETS) + ")")


def test_funnels_are_documented_and_reach_the_marker() -> None:
    doc = (ROOT / "docs" / "shipdata.md").read_text(encoding="utf-8")
    assert re.search(r"^funnels: 2 +# optional: funnels drawn on a generated marker "
                     r"silhouette \(0-6\);", doc, re.M)
    assert ShipClass.model_fields["funnels"].description
    library = load_library()
    with_funnels = [cid for cid, e in library.classes_of("naval-action").items()
                    if e.facts.funnels is not None]
    for cid in with_funnels:
        entry = library.classes_of("naval-action")[cid]
        assert entry.model.funnels == entry.facts.funnels


def test_kongo_is_typed_alike_in_every_ruleset() -> None:
    library = load_library()
    types = {name: str(getattr(library.classes_of(name)["kongo"].model.type, "value",
                               library.classes_of(name)["kongo"].model.type))
             for name in ("naval-action", "surface-action", "rule-27")}
    assert types == dict.fromkeys(types, "BC")
