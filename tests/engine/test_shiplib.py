"""One ship library for every ruleset (issue 14): facts once, ratings derived per ruleset."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from generator.core.errors import DataError
from generator.data.convert import convert_file, unrated_note
from generator.data.library import Entry, load_library
from generator.data.shipclass import rated_by
from generator.kit.pipeline import build
from generator.rulesets.naval_action import rating as na_rating
from generator.rulesets.surface_action import rating as sa_rating
from tests.paths import ROOT
from tests.pdftext import page_texts
from tests.shiplib_snapshot import SNAPSHOT, naval_action, snapshot, surface_action

NA_UNRATED = unrated_note("surface-action", "gun positions, ranges or rounds")
SUBMARINE = "the text rates surface ships only; a submarine has no damage chart column or size"
CLASSES = ROOT / "shipdata" / "classes"
LIBRARY = load_library()

KEPT_BY_HAND = "the Surface Action file's hand rating, kept as an override"
NO_FACTS = "no gun, torpedo or radar facts yet (converted from a Surface Action file)"
RADAR_DATES = ("the Surface Action file dates its one rated set differently from the NAVAL "
               "ACTION radar list")
OVERRIDES: dict[str, dict[str, str]] = {
    "akatsuki": {"speed_in": "about 34 kn in service after the 1935-37 strengthening"},
    "atlanta": {"radar": RADAR_DATES},
    "baltimore": {"guns": "centreline 5in twins counted fore and aft as well (1-4-1)"},
    "benham": {"radar": RADAR_DATES},
    "casablanca": {"radar": "no radar rated for the escort carriers"},
    "cleveland": {"guns": "centreline 5in twins counted fore and aft as well (1-4-1)",
                  "radar": RADAR_DATES},
    "dido": {"radar": "Type 284 gunnery set rated at 12 in, a British set the rules skip"},
    "essex": {"guns": "the only battery, counted by pairs like a big-ship secondary"},
    "fletcher": {"fire_control": "Mk 37 director with fire-control radar in a destroyer",
                 "radar": RADAR_DATES},
    "fubuki": {"speed_in": "about 34 kn in service after the 1935-37 strengthening"},
    "gleaves": {"radar": "no radar rated in the Surface Action file"},
    "independence": {"radar": RADAR_DATES},
    "kongo": {"fire_control": "rebuilt in the 1930s; no dated reconstruction entered yet"},
    "leander": {"guns": "4in HA rated 0-1-0 by hand"},
    "liberty": {"guns": "only the stern gun counts; main so an M hit silences it"},
    "littorio": {"guns": "90 mm AA left out; 120/40 starshell guns rated as a 5in secondary"},
    "mahan": {"radar": "no radar rated in the Surface Action file"},
    "mogami": {"armor": "machinery belt 3.9 in taken (armor 0); the facts keep 4.0 in"},
    "nagara": {"torpedoes": "reloads rated for the older 24in mounts by hand"},
    "new-orleans": {"radar": RADAR_DATES},
    "north-carolina": {"radar": RADAR_DATES},
    "sims": {"radar": RADAR_DATES},
    "south-dakota": {"guns": "secondary rated for South Dakota herself (16 guns)",
                     "radar": RADAR_DATES},
    "tribal": {"guns": "4in HA rated 0-2-2 by hand"},
    "type-1934": {"torpedoes": "no reloads rated: no source confirmed the number"},
    "zara": {"guns": "wartime twelve 100/47 rated 0-3-0"},
    **{cid: dict.fromkeys(("armor", "damage_control", "fire_control", "guns", "radar", "size",
                           "torpedoes", "type"), NO_FACTS)
       for cid in ("edinburgh", "shiratsuyu", "type-1934a", "york")},
}
"""Every Surface Action rating a bundled class file sets by hand, and why."""

SA_CHANGED = {("takao", "guns"): "the class is rated as Maya and Chokai were; Takao and Atago "
              "get their 1942 fit from ships[].fits",
              ("takao", "torpedoes"): "as for guns: 2/2 for the class, 4/4 for the refitted two"}
"""Surface Action class-level ratings that changed in the merge, and why."""

NA_CHANGED = {"independence": "Independence commissioned 1943-01-14 (NHHC), not 1943-01-01",
              # Issue 18 item 10: slips corrected from sources, on purpose.
              "essex": "Hornet (CV-12) commissioned 1943-11-29, not 1943-11-20",
              "kent": "Canberra's 1 in side, not Australia's 1938 4.5 in belt",
              "kongo": "length 728.3 ft (Hiei, Kirishima as rebuilt), not Haruna's 720.5 ft",
              "mahan": "Cummings commissioned 1936-11-25, not 1937-11-25",
              "nagara": "Abukuma's own 1941 fit: two quadruple Type 93 mounts",
              "soldati": "radar only on the four ships that had a set by June 1943",
              "town": "radar from 1940 for the class; Sheffield's 1938 set is her own fit",
              "type-1934": "commissioning days from the ship articles, not months",
              "zara": "Gorizia commissioned 1931-12-23, not 1932-12-23"}
"""NAVAL ACTION classes whose printed values changed in the merge, and why."""


def test_every_bundled_class_rated_as_before() -> None:
    """Ratings equal the pre-merge files' or differ for a reason listed here."""
    before = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    now = snapshot(LIBRARY)
    changed_na = {c for c, digest in before["naval-action"].items()
                  if now["naval-action"].get(c) != digest}
    assert changed_na == set(NA_CHANGED)
    for class_id, old in before["surface-action"].items():
        new = now["surface-action"][class_id]
        for key in old:
            if key == "ships" and old[key] != new[key]:
                # Ships now come from the merged list: each change is in discrepancies.
                facts = LIBRARY.classes_of("surface-action")[class_id].facts
                noted = " ".join(facts.discrepancies)
                gone = [s.split(" ")[0] for s in set(old[key]) - set(new[key])]
                assert all(name in noted or any(name in n for n in new[key])
                           for name in gone), (class_id, gone)
                continue
            if (class_id, key) in SA_CHANGED:
                assert old[key] != new[key], (class_id, key, "listed as changed but is not")
                continue
            assert old[key] == new[key], (class_id, key, old[key], new[key])


def test_every_hand_rating_is_listed_with_its_reason() -> None:
    found = {cid: sorted(e.overrides) for cid, e in LIBRARY.classes_of("surface-action").items()
             if e.overrides}
    assert found == {cid: sorted(keys) for cid, keys in OVERRIDES.items()}
    assert not any(e.overrides for e in LIBRARY.classes_of("naval-action").values())


def test_coverage_and_unrated_reasons() -> None:
    # Rule 27 added Eagle, Ark Royal and the F class; issue 30 gave the carriers' guns
    # ranges and rounds, so NAVAL ACTION rates them too.
    assert len(list(CLASSES.glob("*/*.yaml"))) == 115
    assert len(LIBRARY.classes_of("naval-action")) == 111
    assert set(LIBRARY.unrated["naval-action"]) == {"edinburgh", "shiratsuyu", "type-1934a",
                                                    "york"}
    assert LIBRARY.unrated["surface-action"] == dict.fromkeys(("type-vii", "gato"), SUBMARINE)
    assert len(LIBRARY.classes_of("surface-action")) == 113
    assert rated_by(LIBRARY, "takao")[:2] == ["naval-action", "surface-action"]
    assert rated_by(LIBRARY, "gato") == ["naval-action"]
    assert rated_by(LIBRARY, "york")[:1] == ["surface-action"]


def test_derived_surface_action_values_of_a_class_no_one_rated_by_hand() -> None:
    """Nelson-less check on Furutaka: every value from the rules file, by hand here."""
    model = LIBRARY.classes_of("surface-action")["furutaka"].model
    facts = LIBRARY.classes_of("surface-action")["furutaka"].facts
    assert facts.length_ft >= 500 and facts.armor.belt_in < 4
    assert model.size == "4/4" and model.armor == 0 and model.damage_control == 3
    assert model.fire_control == "early"  # first commissioned 1926, no reconstruction entered
    main = model.guns[0]
    bow = sum(b.guns for b in facts.guns if b.position.value in ("BOW", "LB", "RB")
              and b.bore_in == facts.guns[0].bore_in)
    assert main.role == "main" and int(main.factors.split("-")[0]) == bow


@pytest.mark.parametrize(("size", "na_size", "weapon"), [
    ("size_mm: 550", 21, "21in"), ("size_in: 24.5", 24, "24in"), ("size_mm: 610", 24, "24in"),
])
def test_torpedo_bores_as_entered(tmp_path: Path, size: str, na_size: int, weapon: str) -> None:
    text = (CLASSES / "uk" / "j-k-n.yaml").read_text(encoding="utf-8")
    text = re.sub(r"size_in: 21", size, text)
    (tmp_path / "j-k-n.yaml").write_text(text, encoding="utf-8")
    library = load_library([tmp_path])
    assert not library.problems
    na = library.classes_of("naval-action")["j-k-n"].model
    sa = library.classes_of("surface-action")["j-k-n"].model
    assert {t.size_in for t in na.torpedoes} == {na_size}
    assert sa.torpedoes is not None and sa.torpedoes.weapon == weapon


# --- located errors -------------------------------------------------------------------------

TAKAO = (CLASSES / "jp" / "takao.yaml").read_text(encoding="utf-8")


def problems_of(tmp_path: Path, text: str) -> list[str]:
    (tmp_path / "takao.yaml").write_text(text, encoding="utf-8")
    return [str(p).replace(str(tmp_path) + "/", "") for p in load_library([tmp_path]).problems]


def test_ship_lost_before_commissioned(tmp_path: Path) -> None:
    text = TAKAO.replace("{name: Maya, commissioned: 1932-06-30, lost: 1944-10-23}",
                         "{name: Maya, commissioned: 1932-06-30, lost: 1931-10-23}")
    assert problems_of(tmp_path, text) == [
        "takao.yaml:23:5: ships.2: found a mapping, expected 'lost' on or after 'commissioned'"]


def test_mount_with_more_guns_than_the_battery(tmp_path: Path) -> None:
    assert problems_of(tmp_path, TAKAO.replace("turrets: 3,", "turrets: 7,")) == [
        "takao.yaml:36:93: guns.0.turrets: found 7 mounts, expected at most 6 (the battery's "
        "guns, one or more in each mount)"]


def test_radar_fitted_after_the_last_ship_was_lost(tmp_path: Path) -> None:
    text = TAKAO.replace("  - name: Takao\n    commissioned: 1932-05-31\n",
                         "  - name: Takao\n    commissioned: 1932-05-31\n    lost: 1944-11-01\n")
    text = text.replace("{type: SG, fitted: 1944-03-01}", "{type: SG, fitted: 1945-03-01}")
    assert problems_of(tmp_path, text) == [
        "takao.yaml:45:24: radar.1.fitted: found 1945-03-01, expected a date on or before "
        "1944-11-01, when the class's last ship was lost"]


def test_override_of_a_rating_the_ruleset_lacks(tmp_path: Path) -> None:
    [problem] = problems_of(tmp_path, TAKAO + "  naval-action:\n    armour_factor: 3\n")
    assert problem.startswith("takao.yaml:86:20: ratings.naval-action.armour_factor: found "
                              "unknown rating 'armour_factor', expected one of unrated, "
                              "armor_factor, aa_factor, damage_control")
    assert problem.endswith("; did you mean 'armor_factor'?")


def test_ratings_for_an_unknown_ruleset(tmp_path: Path) -> None:
    text = TAKAO.replace("ratings:\n", "ratings:\n  surface-acton: {size: 5/5}\n")
    from generator.data.shipclass import rating_modules

    # The rulesets that rate ship classes (a rating module each), in registry order.
    raters = list(rating_modules())
    assert {"naval-action", "surface-action"} <= set(raters)
    assert "naval-warfare" not in raters  # rates unit types, not classes
    assert problems_of(tmp_path, text) == [
        "takao.yaml:76:18: ratings.surface-acton: found ruleset 'surface-acton', expected one "
        f"of {', '.join(raters)}; did you mean 'surface-action'?"]


def test_bad_override_value_is_located_in_the_ratings_block(tmp_path: Path) -> None:
    text = TAKAO.replace("  surface-action:\n", "  surface-action:\n    guns:\n"
                         "    - {weapon: 8in, factors: 6-10, role: main}\n")
    line = text[:text.index("factors: 6-10")].count("\n") + 1
    [problem] = problems_of(tmp_path, text)
    assert problem.startswith(f"takao.yaml:{line}:30: ratings.surface-action.guns.0.factors: "
                              "found '6-10', expected bow-broadside-stern factors")


def test_unrated_block_and_a_users_override(tmp_path: Path) -> None:
    text = TAKAO.replace("ratings:\n", "ratings:\n  naval-action: {unrated: a test says so}\n")
    text = text.replace("  surface-action:\n", "  surface-action:\n    damage_control: 5\n")
    (tmp_path / "takao.yaml").write_text(text, encoding="utf-8")
    library = load_library([tmp_path])
    assert not library.problems
    assert "takao" not in library.classes_of("naval-action")
    assert library.unrated["naval-action"]["takao"] == "a test says so"
    entry = library.classes_of("surface-action")["takao"]
    assert entry.model.damage_control == 5 and "damage_control" in entry.overrides


# --- old per-ruleset files --------------------------------------------------------------------

OLD_NA = """kind: ship-class
ruleset: naval-action
id: my-cruiser
name: My Cruiser
nation: US
type: CA
ships:
  - {name: First Ship, commissioned: 1940-01-01}
length_ft: 600
armor: {belt_in: 5, deck_in: 2, factor: 4}
speed_kn: 32
guns:
  - {position: BOW, guns: 6, bore_in: 8, max_range_yd: 30000, rounds_per_gun: 150,
     turrets: 2, caliber_factor: 6}
  - {position: STN, guns: 3, bore_in: 8, max_range_yd: 30000, rounds_per_gun: 150, turrets: 1}
torpedoes:
  - {size_in: 21, mounts: 2, tubes: 3, mount: side}
overrides: {aa_factor: 2.5}
sources: ["a book"]
"""

OLD_SA = """kind: ship-class
ruleset: surface-action
id: my-destroyer
name: My Destroyer
nation: JP
type: DD
ships:
  - {name: First Ship, commissioned: 1940-01-01, note: "a note"}
facts: {length_ft: 380, speed_kn: 35, armament: "6 x 5in, 8 x 24in"}
guns:
  - {weapon: 5in, factors: 2-6-4, role: main}
torpedoes: {weapon: 24in-type93, factors: "4 (4)"}
size: 3/2
armor: 1
fire_control: regular
damage_control: 3
sources: ["a book"]
notes: "rated by hand"
"""


@pytest.mark.parametrize(("text", "ruleset"), [(OLD_NA, "naval-action"),
                                                (OLD_SA, "surface-action")])
def test_old_file_loads_with_a_warning_and_converts_equal(tmp_path: Path, text: str,
                                                          ruleset: str) -> None:
    class_id = re.search(r"^id: (.+)$", text, re.M).group(1)  # type: ignore[union-attr]
    old_dir, new_dir = tmp_path / "old", tmp_path / "new"
    old_dir.mkdir()
    new_dir.mkdir()
    path = old_dir / f"{class_id}.yaml"
    path.write_text(text, encoding="utf-8")
    old = load_library([old_dir])
    assert not old.problems
    assert old.warnings == [f"{path}: a class file for {ruleset} only; run `quarterdeck "
                            f"convert {path}` to write it once for every ruleset"]
    (new_dir / f"{class_id}.yaml").write_text(convert_file(path), encoding="utf-8")
    new = load_library([new_dir])
    assert not new.problems and not new.warnings
    before = old.classes_of(ruleset)[class_id]
    after = new.classes_of(ruleset)[class_id]
    assert after.model == before.model
    if ruleset == "naval-action":
        assert sorted(after.overrides) == ["aa_factor", "armor_factor", "guns.0.caliber_factor"]
        assert naval_action(after.model) == naval_action(before.model)
        assert new.classes_of("surface-action")[class_id].model.size == "4/4"
    else:
        assert surface_action(after.model) == surface_action(before.model)
        assert class_id in new.unrated["naval-action"]


def test_convert_refuses_a_scenario(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("kind: scenario\nruleset: naval-action\nid: s\n", encoding="utf-8")
    with pytest.raises(DataError) as caught:
        convert_file(path)
    assert str(caught.value.problems[0]) == (
        f"{path}:2:10: ruleset: found 'naval-action', expected a class file of one ruleset "
        "(naval-action, surface-action) to convert")


# --- one file in --data gives both rulesets' pieces -------------------------------------------

def test_one_class_file_gives_both_rulesets_pieces(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    text = TAKAO.replace("id: takao", "id: my-takao").replace("\nname: Takao\n",
                                                             "\nname: My Takao\n")
    text = text.replace("  - name: Takao\n", "  - name: Kinugasa Maru\n").replace(
        "ship_notes:\n      Takao:", "ship_notes:\n      Kinugasa Maru:")
    (data / "my-takao.yaml").write_text(text, encoding="utf-8")
    result = build(class_id="my-takao", data=[data], out=tmp_path / "out")
    texts = page_texts(result.folder / "my-takao.pdf")
    assert "How to print this packet" in texts[0]  # the print note, then the sheet
    assert "KINUGASA MARU" in texts[1]
    # ... and her 1:12,000 marker with its previous-turn twin, invisible id and all
    markers = "".join(texts[2:])
    assert "Kinugasa Maru" in markers and "previous turn" in markers
    assert "ship.kinugasa-maru" in markers
    library = load_library([data])
    entry: Entry = library.classes_of("surface-action")["my-takao"]
    written = build(class_id="my-takao", ruleset="surface-action", data=[data],
                    out=tmp_path / "out")
    assert written.folder == tmp_path / "out" / "class-my-takao" / "surface-action"
    page = next(t for t in page_texts(written.folder / "my-takao.pdf")
                if "How to print this packet" not in t)
    assert "Kinugasa Maru" in page and "6-10-4" in page and entry.model.size in page


def test_na_rating_names_include_each_battery() -> None:
    facts = LIBRARY.classes_of("naval-action")["takao"].facts
    names = na_rating.rating_names(facts)
    assert "guns.1.fire_step" in names and "guns.2.fire_step" not in names
    assert sa_rating.rules().types["CLAA"] == "CL"


def test_new_class_scaffold_is_rated_by_both(tmp_path: Path) -> None:
    from generator.kit.seam import new_class_yaml
    from tests.scaffolds import fill

    # Untouched, the scaffold is refused (tests/engine/test_designers.py); filled in, both rate it.
    (tmp_path / "my-dd.yaml").write_text(fill(new_class_yaml("my-dd", "US", "DD")),
                                         encoding="utf-8")
    library = load_library([tmp_path])
    assert not library.problems and not library.warnings
    assert library.classes_of("naval-action")["my-dd"].model.name == "My Dd"
    sa = library.classes_of("surface-action")["my-dd"].model
    assert (sa.size, [g.factors for g in sa.guns], sa.torpedoes) == ("3/2", ["2-2-0"], None)


def test_convert_command_rewrites_in_place(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from generator.cli.main import main

    path = tmp_path / "my-cruiser.yaml"
    path.write_text(OLD_NA, encoding="utf-8")
    result = CliRunner().invoke(main, ["convert", str(path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "my-cruiser.yaml.bak").read_text(encoding="utf-8") == OLD_NA
    assert "ruleset:" not in path.read_text(encoding="utf-8").split("ratings:")[0]
    library = load_library([path])
    assert not library.problems and not library.warnings


def test_check_names_every_class_a_ruleset_cannot_rate(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from generator.cli.main import main

    result = CliRunner().invoke(main, ["check"])
    assert result.exit_code == 0, result.output
    lines = [x for x in result.output.splitlines() if "does not rate" in x
             and x.split()[0] in ("naval-action", "surface-action")]
    assert lines == [
        "naval-action does not rate 'edinburgh': the NAVAL ACTION library leaves these ships "
        "out of 'town' (see its notes); add gun positions, ranges and rounds to rate them",
        "naval-action does not rate 'shiratsuyu': " + NA_UNRATED,
        "naval-action does not rate 'type-1934a': the NAVAL ACTION library leaves these ships "
        "out of 'type-1934' (see its notes); add gun positions, ranges and rounds to rate them",
        "naval-action does not rate 'york': " + NA_UNRATED,
        "surface-action does not rate 'gato': " + SUBMARINE,
        "surface-action does not rate 'type-vii': " + SUBMARINE,
    ]


def test_a_ships_fit_explains_a_hand_rating() -> None:
    """Takao's hand rating (her 1942 fit) follows from her fit by the rules alone."""
    import datetime as dt

    from generator.data.shipclass import facts_at

    facts = LIBRARY.classes_of("surface-action")["takao"].facts
    hand = LIBRARY.model_at("surface-action", "takao", "Takao", dt.date(1942, 11, 15))
    as_built = sa_rating.derived(facts_at(facts, "Takao", dt.date(1941, 1, 1)))
    refitted = sa_rating.derived(facts_at(facts, "Takao", dt.date(1942, 11, 15)))
    assert as_built["torpedoes"]["factors"] == "2/2 (4)"
    assert refitted["torpedoes"]["factors"] == hand.torpedoes.factors == "4/4 (4)"
    assert [g["factors"] for g in refitted["guns"]] == [g.factors for g in hand.guns]
    chokai = sa_rating.derived(facts_at(facts, "Chokai", dt.date(1942, 11, 15)))
    assert chokai["torpedoes"]["factors"] == "2/2 (4)"  # never rebuilt
    with pytest.raises(KeyError, match="^'Tone'$"):
        facts_at(facts, "Tone", dt.date(1942, 1, 1))


def test_overrides_are_printed_on_the_sheet_and_in_the_catalog(tmp_path: Path) -> None:
    import pypdfium2 as pdfium
    from click.testing import CliRunner

    from generator.cli.main import main

    entry = LIBRARY.classes_of("surface-action")["atlanta"]
    assert entry.overrides == ["radar"]
    result = build(class_id="atlanta", ruleset="surface-action", out=tmp_path)
    sheet = pdfium.PdfDocument(str(result.folder / "atlanta.pdf"))
    assert "How to print this packet" in sheet[0].get_textpage().get_text_range()
    assert "set by hand: radar" in sheet[1].get_textpage().get_text_range()
    run = CliRunner().invoke(main, ["catalog", "--ruleset", "surface-action", "--out",
                                    str(tmp_path)])
    assert run.exit_code == 0, run.output
    pdf = pdfium.PdfDocument(str(tmp_path / "catalog-surface-action.pdf"))
    text = "\n".join(pdf[i].get_textpage().get_text_range() for i in range(len(pdf)))
    assert "Who rates each class" in text
    lines = [line for line in text.splitlines() if line.startswith("Atlanta ")]
    assert "Atlanta NAVAL ACTION, Surface Action radar" in lines
    # A class one ruleset cannot rate is listed with why, not left out.
    assert any(line.startswith("gato not rated here") for line in text.splitlines())


# --- the rating hooks are the ruleset's, declared on the seam ------------------------------

def test_rating_hooks_are_declared_on_each_ruleset_not_found_on_its_module() -> None:
    from generator.data.shipclass import rating_modules
    from generator.rulesets import REGISTRY

    hooks = {name: (r.rates_missile_era, r.converts_old_files, r.old_file_lacks)
             for name, r in REGISTRY.every().items() if name in rating_modules()}
    assert hooks == {"naval-action": (False, True, None),
                     "surface-action": (False, True, "gun positions, ranges or rounds"),
                     "modern-naval": (True, False, None),
                     "rule-27": (False, False, None)}
    for name, module in rating_modules().items():  # the old module-level names are gone
        assert not {"RATES_MISSILE_ERA", "OLD_FILE_LACKS"} & set(vars(module)), name


def test_the_data_layer_reads_the_rating_hooks_from_the_ruleset(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.data.shipclass import ShipClass, deriver
    from generator.rulesets import REGISTRY

    facts = ShipClass.model_validate(yaml.safe_load(
        (CLASSES / "modern" / "eg" / "osa-i-eg.yaml").read_text(encoding="utf-8")))
    modern = type(REGISTRY["modern-naval"])
    assert deriver("modern-naval")(facts).model is not None
    monkeypatch.setattr(modern, "rates_missile_era", False)
    assert deriver("modern-naval")(facts).model is None  # passed by like a gun-era ruleset
    path = tmp_path / "my-cruiser.yaml"
    path.write_text(OLD_NA, encoding="utf-8")
    monkeypatch.setattr(type(REGISTRY["naval-action"]), "old_file_lacks", "searchlights")
    converted = yaml.safe_load(convert_file(path))
    assert converted["ratings"]["surface-action"] == {
        "unrated": unrated_note("naval-action", "searchlights")}
    monkeypatch.setattr(type(REGISTRY["naval-action"]), "converts_old_files", False)
    with pytest.raises(DataError) as caught:
        convert_file(path)
    assert str(caught.value.problems[0]).endswith(
        "ruleset: found 'naval-action', expected a class file of one ruleset "
        "(surface-action) to convert")
