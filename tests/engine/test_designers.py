"""Designers (issue 19 items 4-7): scaffolds, spreadsheets, previews, proof kits."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from generator.cli.main import main
from generator.data.datamodel import Nation
from generator.data.shipclass import ShipClass, ShipType
from tests.paths import ROOT
from tests.scaffolds import fill

# The code lists come from the one model, so a navy or type added for a new ruleset is
# offered here too; the tests below pin how the message reads, not the list's length.
NATIONS = ", ".join(n.value for n in Nation)
TYPES = ", ".join(t.value for t in ShipType)
FIELDS = ", ".join(ShipClass.model_fields)


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


# --- item 7: scaffolds that cannot lie ----------------------------------------------------

@pytest.mark.parametrize(("option", "value", "message"), [
    ("--nation", "GB", f"error: --nation: found 'GB', expected a navy code: {NATIONS}; "
                       "did you mean 'UK'?"),
    ("--nation", "jp", f"error: --nation: found 'jp', expected a navy code: {NATIONS}; "
                       "did you mean 'JP'?"),
    ("--nation", "XQ", f"error: --nation: found 'XQ', expected a navy code: {NATIONS}"),
    ("--type", "XX", f"error: --type: found 'XX', expected a type code: {TYPES}"),
    ("--type", "destroyer", f"error: --type: found 'destroyer', expected a type code: "
                            f"{TYPES}; did you mean 'DD'?"),
    ("--type", "CLA", f"error: --type: found 'CLA', expected a type code: {TYPES}; "
                      "did you mean 'CLAA'?"),
])
def test_new_class_refuses_unknown_codes(tmp_path: Path, option: str, value: str,
                                         message: str) -> None:
    result = run("new-class", "my-dd", option, value, "--out", str(tmp_path))
    assert (result.exit_code, result.output) == (2, message + "\n")
    assert not list(tmp_path.iterdir())  # nothing written


SCAFFOLD_PLACEHOLDERS = [
    (7, 7, "name", "class name as printed, 1-60 characters"),
    (11, 11, "ships.0.name", "ship name"),
    (12, 19, "ships.0.commissioned", "date commissioned, YYYY-MM-DD"),
    (17, 12, "length_ft", "overall length in feet, 50-1300"),
    (18, 17, "displacement_t", "standard displacement in long tons"),
    (19, 11, "speed_kn", "maximum speed in knots"),
    (21, 12, "armor.belt_in", "main belt in inches, 0 if unarmoured"),
    (22, 12, "armor.deck_in", "armour deck in inches, 0 if none"),
    (25, 15, "guns.0.position", "BOW C STN L R LB RB LS or RS"),
    (26, 11, "guns.0.guns", "number of guns in the battery"),
    (27, 14, "guns.0.bore_in", "bore in inches"),
    (28, 19, "guns.0.max_range_yd", "maximum range in yards"),
    (29, 21, "guns.0.rounds_per_gun", "rounds carried per gun"),
    (40, 5, "sources.0", "title of the page or book (address): which facts"),
]


@pytest.mark.parametrize("ruleset", [None, "naval-action", "surface-action"])
def test_untouched_class_scaffold_fails_check_listing_every_placeholder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ruleset: str | None) -> None:
    monkeypatch.chdir(tmp_path)
    extra = ["--ruleset", ruleset] if ruleset else []
    made = run("new-class", "my-dd", "--nation", "UK", "--type", "DD", "--out", "mine", *extra)
    assert made.exit_code == 0, made.output
    checked = CliRunner().invoke(main, ["check", "mine"])
    assert checked.exit_code == 2
    lines = checked.stderr.splitlines()
    assert lines == [
        f"mine/my-dd.yaml:{line}:{col}: {path}: found placeholder '<fill in: {what}>', "
        f"expected your own value (replace all 14 placeholders the scaffold left)"
        for line, col, path, what in SCAFFOLD_PLACEHOLDERS] + ["error: 14 problems in the data"]


def test_filled_class_scaffold_passes_and_one_left_placeholder_is_named(
        tmp_path: Path) -> None:
    assert run("new-class", "my-dd", "--out", str(tmp_path)).exit_code == 0
    path = tmp_path / "my-dd.yaml"
    scaffold = path.read_text(encoding="utf-8")
    path.write_text(fill(scaffold), encoding="utf-8")
    ok = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert ok.exit_code == 0, ok.output
    assert ok.stdout.startswith("ok: ")
    # Forget one: only that one is named, with its place in the file.
    path.write_text(fill(scaffold).replace("speed_kn: 35",
                                           'speed_kn: "<fill in: maximum speed in knots>"'))
    one = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert one.exit_code == 2
    assert one.stderr.splitlines()[0] == (
        f"{path}:19:11: speed_kn: found placeholder '<fill in: maximum speed in knots>', "
        "expected your own value (replace all 1 placeholders the scaffold left)")


SCENARIO_FILLS = {
    "naval-action": ["My Battle", "1942-08-09", "night", "good", "calm",
                     "allied", "Allies", "new-orleans", "Astoria",
                     "japanese", "Japanese", "takao", "Takao",
                     "Both lines of ships meet.", "Sink more than you lose.",
                     # The set-up block: the table, then one group (name, side, ship,
                     # position, course, speed).
                     "180", "120", "Allied line", "allied", "Astoria", "[30000, 20000]",
                     "90", "20",
                     "'Test source (test): the order of battle'"],
}


@pytest.mark.parametrize("ruleset", ["naval-action", "surface-action"])
def test_new_scenario_fails_check_until_filled(tmp_path: Path, ruleset: str) -> None:
    made = run("new-scenario", "my-battle", "--ruleset", ruleset, "--out", str(tmp_path))
    assert made.exit_code == 0, made.output
    text = (tmp_path / "my-battle.yaml").read_text(encoding="utf-8")
    assert f"ruleset: {ruleset}" in text and "id: my-battle" in text
    holes = re.findall(r'(?<=[:-] )"<fill in:[^"]*"', text)
    checked = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert checked.exit_code == 2
    named = [line for line in checked.stderr.splitlines() if "found placeholder" in line]
    assert len(named) == len(holes) >= 10
    assert checked.stderr.splitlines()[-1] == f"error: {len(holes)} problems in the data"
    if ruleset in SCENARIO_FILLS:
        values = iter(SCENARIO_FILLS[ruleset])
        filled = re.sub(r'(?<=[:-] )"<fill in:[^"]*"', lambda m: next(values), text)
        (tmp_path / "my-battle.yaml").write_text(filled, encoding="utf-8")
        ok = CliRunner().invoke(main, ["check", str(tmp_path)])
        assert ok.exit_code == 0, ok.output


def test_new_scenario_refuses_unknown_ruleset(tmp_path: Path) -> None:
    result = run("new-scenario", "x", "--ruleset", "naval-actoin", "--out", str(tmp_path))
    assert (result.exit_code, result.output) == (
        2, "error: --ruleset: no ruleset 'naval-actoin'; did you mean 'naval-action'?\n")


@pytest.mark.parametrize(("scenario", "ruleset"), [(None, "naval-action"),
                                                   ("river-plate", "surface-action")])
def test_tables_export_is_the_bundled_tables(tmp_path: Path, scenario: str | None,
                                             ruleset: str) -> None:
    path = tmp_path / "mine.yaml"
    result = run("tables", *([scenario] if scenario else []), "--export", str(path))
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# ") and "default: true" in text
    # Read back as --tables, it replaces every table with an equal one.
    if ruleset == "naval-action":
        from generator.rulesets.naval_action.cardtables import load_tables

        given, bundled = load_tables(path), load_tables()
        assert (given.card, given.rules, given.markers) == (bundled.card, bundled.rules,
                                                            bundled.markers)
        assert "accuracy" in given.replaced and "marker_pools" in given.replaced
    else:
        from generator.rulesets.surface_action.charts import bundled_charts, load_charts

        # Compared as data: a model's == also compares cached properties, which a build
        # earlier in the session may have filled in on the bundled charts.
        assert load_charts(path).model_dump() == bundled_charts().model_dump()
    again = run("tables", *([scenario] if scenario else []), "--export", str(path))
    assert (again.exit_code, again.output) == (
        2, f"error: {path} already exists; not overwriting it\n")


# --- item 4: spreadsheets in and out ------------------------------------------------------

GOOD_CSV = """\
id,name,nation,type,ships.name,ships.commissioned,length (m),speed_kn,armor.belt (mm),\
guns.0.position,guns.0.guns,guns.0.bore (mm),guns.0.max_range_yd,guns.0.rounds_per_gun,sources
my-dd,My DD,UK,DD,First,1940-01-01,100,36,0,BOW,4,120,16000,200,Test (test): all
,,,,Second,1940-06-01,,,,,,,,,
"""


def _classes_in(folder: Path) -> dict[str, object]:
    from generator.data.library import data_files
    from generator.data.shipclass import ShipClass
    from generator.data.validation import validate
    from generator.data.yamlsource import load_yaml

    found = {}
    for path in data_files(folder):
        doc, problems = load_yaml(path)
        model, invalid = validate(ShipClass, doc)
        assert not problems and not invalid and model is not None, path
        found[model.id] = model
    return found


@pytest.fixture(scope="module")
def library_models() -> list[object]:
    from generator.data.sheetexport import library_classes

    return library_classes([])  # type: ignore[return-value]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_round_trip_of_the_whole_library_changes_nothing(
        tmp_path: Path, library_models: list[object], fmt: str) -> None:
    sheet = tmp_path / f"classes.{fmt}"
    exported = run("export", "classes", "--format", fmt, "--out", str(sheet))
    assert exported.exit_code == 0, exported.output
    assert exported.output == f"wrote {sheet} ({len(library_models)} classes)\n"
    assert len(library_models) > 100
    imported = run("import", str(sheet), "--out", str(tmp_path / "lib"))
    assert imported.exit_code == 0, imported.output
    back = _classes_in(tmp_path / "lib")
    assert list(back) == [m.id for m in library_models]  # type: ignore[attr-defined]
    for model in library_models:
        assert back[model.id] == model, model.id  # type: ignore[attr-defined]
    if fmt == "csv":  # and the imported files export to the very same sheet
        again = tmp_path / "again.csv"
        assert run("export", "classes", "--data", str(tmp_path / "lib"),
                   "--out", str(again)).exit_code == 0
        assert again.read_bytes() == sheet.read_bytes()


def test_import_converts_units_named_in_the_header(tmp_path: Path) -> None:
    sheet = tmp_path / "ships.csv"
    sheet.write_text(GOOD_CSV, encoding="utf-8")
    result = run("import", str(sheet), "--out", str(tmp_path / "out"),
                 "--ruleset", "naval-action")
    assert result.exit_code == 0, result.output
    model = _classes_in(tmp_path / "out")["my-dd"]
    assert (model.length_ft, model.armor.belt_in, model.guns[0].bore_in) == (  # type: ignore[attr-defined]
        328.08, 0.0, 4.72)  # 100 m, 0 mm, 120 mm
    assert [s.name for s in model.ships] == ["First", "Second"]  # type: ignore[attr-defined]
    checked = run("check", str(tmp_path / "out"))
    assert checked.exit_code == 0, checked.output


def test_bad_csv_cells_are_all_located_and_nothing_is_written(tmp_path: Path) -> None:
    sheet = tmp_path / "bad.csv"
    sheet.write_text(GOOD_CSV.replace("length (m)", "length (kg)").replace(",UK,", ",GB,")
                     .replace(",36,", ",fast,").replace("1940-06-01", "1940-13-01")
                     .replace(",sources\n", ",sources,colour\n"), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", str(sheet), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{sheet}:1:7: length_ft: found the unit 'kg', expected a length unit: "
        "ft, m, cm, mm, in, yd, km, nmi",
        f"{sheet}:1:16: colour: found unknown field 'colour', expected one of {FIELDS}",
        f"{sheet}:2:3: nation: found 'GB', expected one of {NATIONS}",
        f"{sheet}:2:8: speed_kn: found 'fast', expected a number",
        f"{sheet}:3:6: ships.1.commissioned: found '1940-13-01', expected a date YYYY-MM-DD",
        "error: 5 problems in the data"]
    assert not (tmp_path / "out").exists()


def _xlsx(path: Path, rows: list[list[object]], merge: str | None = None) -> Path:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Sheet1"
    for row in rows:
        sheet.append(row)
    if merge:
        sheet.merge_cells(merge)
    book.save(path)
    return path


def _good_rows() -> list[list[object]]:
    import csv
    import io

    rows: list[list[object]] = [list(r) for r in csv.reader(io.StringIO(GOOD_CSV))]
    return rows


@pytest.mark.parametrize(("change", "lines"), [
    ("bad cell", ["ships.xlsx:Sheet1!H2: speed_kn: found 'fast', expected a number"]),
    ("merged", ["ships.xlsx:Sheet1!B2: found merged cells B2:C2, expected one value in each "
                "cell (unmerge them)"]),
    ("formula", ["ships.xlsx:Sheet1!G2: found the formula '=30.48*10', expected a value "
                 "(paste the values instead)"]),
    ("no header", ["ships.xlsx:Sheet1!A1: speed_kn: found no column, expected a header "
                   "'speed_kn' or 'speed (unit)' (required)",
                   "ships.xlsx:Sheet1!H1: found an empty header above values, expected the "
                   "field the column fills, such as 'name' or 'length (m)'"]),
    ("missing column", ["ships.xlsx:Sheet1!A1: speed_kn: found no column, expected a header "
                        "'speed_kn' or 'speed (unit)' (required)"]),
    ("wrong unit", ["ships.xlsx:Sheet1!G1: length_ft: found the unit 'kg', expected a length "
                    "unit: ft, m, cm, mm, in, yd, km, nmi"]),
])
def test_bad_xlsx_is_located_at_its_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         change: str, lines: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    rows = _good_rows()
    merge = None
    if change == "bad cell":
        rows[1][7] = "fast"
    elif change == "merged":
        merge = "B2:C2"
    elif change == "formula":
        rows[1][6] = "=30.48*10"
    elif change == "no header":
        rows[0][7] = None
    elif change == "missing column":
        for row in rows:
            del row[7]
    elif change == "wrong unit":
        rows[0][6] = "length (kg)"
    _xlsx(tmp_path / "ships.xlsx", rows, merge)
    result = CliRunner().invoke(main, ["import", "ships.xlsx", "--out", "out"])
    assert result.exit_code == 2, result.output
    count = len(lines)
    assert result.stderr.splitlines() == [
        *lines, f"error: {count} problem{'s' if count != 1 else ''} in the data"]
    assert not (tmp_path / "out").exists()


def test_a_huge_sheet_is_refused_before_it_is_read(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import time
    import zipfile

    import openpyxl

    monkeypatch.chdir(tmp_path)
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("Sheet1")
    sheet.append(["id", "name"])
    sheet.append(["c0"])
    book.save("small.xlsx")
    # The same workbook with 100,000 rows: its one row repeated in the sheet's XML (as
    # openpyxl writes it, much faster than appending each row).
    row = '<row r="2"><c r="A2" t="inlineStr"><is><t>c0</t></is></c></row>'
    rows = "".join(f'<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>c{n - 2}</t></is></c></row>'
                   for n in range(2, 100_002))
    with zipfile.ZipFile("small.xlsx") as small, \
            zipfile.ZipFile("huge.xlsx", "w", zipfile.ZIP_DEFLATED) as huge:
        for item in small.infolist():
            data = small.read(item)
            if item.filename == "xl/worksheets/sheet1.xml":
                assert row.encode() in data
                data = data.replace(row.encode(), rows.encode())
            huge.writestr(item, data)
    start = time.perf_counter()
    result = CliRunner().invoke(main, ["import", "huge.xlsx", "--out", "out"])
    assert time.perf_counter() - start < 10
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        "huge.xlsx:Sheet1!A10002: found more than 10000 rows, expected at most 10000 rows of "
        "classes and ships after the header", "error: 1 problem in the data"]
    assert not (tmp_path / "out").exists()


def test_export_refuses_a_mismatched_suffix(tmp_path: Path) -> None:
    result = run("export", "classes", "--format", "xlsx", "--out", str(tmp_path / "x.csv"))
    assert (result.exit_code, result.output) == (
        2, "error: --out: found 'x.csv', expected a .xlsx file for --format xlsx\n")


def test_one_row_per_class_and_numbered_items(tmp_path: Path) -> None:
    sheet = tmp_path / "per-class.csv"
    sheet.write_text(
        "id,name,nation,type,ships.0.name,ships.0.commissioned,ships.1.name,"
        "ships.1.commissioned,length_ft,speed (km/h),armor.belt_in,guns.0.position,"
        "guns.0.guns,guns.0.bore_in,guns.0.max_range_yd,guns.0.rounds_per_gun,"
        "guns.2.position,sources\n"
        "my-dd,My DD,UK,DD,First,1940-01-01,Second,1940-06-01,350,66.68,0,BOW,2,4.7,16000,"
        '200,STN,"Test (test): all\nTest 2 (test): speed"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["import", str(sheet), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{sheet}:2:17: guns.2: found item 2 without item 1, expected items numbered from 0 "
        "with none left out", "error: 1 problem in the data"]
    sheet.write_text(sheet.read_text().replace(",guns.2.position,", ",,")
                     .replace(",STN,", ",,"), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", str(sheet), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    model = _classes_in(tmp_path / "out")["my-dd"]
    assert model.speed_kn == 36.0  # type: ignore[attr-defined]  # 66.68 km/h
    assert len(model.sources) == 2 and len(model.ships) == 2  # type: ignore[attr-defined]


# --- item 5: preview and watch ----------------------------------------------------------

A4_PT = (595.2756, 841.8898)


@pytest.mark.parametrize(("ruleset", "kind", "landscape"), [
    ("naval-action", "status", False), ("naval-action", "marker", False),
    ("naval-action", "card", False), ("surface-action", "status", True),
    ("surface-action", "counter", False), ("surface-action", "card", False)])
def test_preview_renders_one_component_to_png(tmp_path: Path, ruleset: str, kind: str,
                                              landscape: bool) -> None:
    from PIL import Image

    from generator.kit.preview import preview

    made = preview("takao", ruleset=ruleset, kind=kind, dpi=150)  # type: ignore[arg-type]
    assert made.ruleset == ruleset
    assert made.seconds < 3  # measured 0.2-0.4 s on an idle machine
    path = tmp_path / "p.png"
    path.write_bytes(made.png)
    with Image.open(path) as image:
        width, height = (v * 150 / 72 for v in A4_PT)  # the page at 150 dpi, to a pixel
        expected = (height, width) if landscape else (width, height)
        assert all(abs(got - want) < 1 for got, want in zip(image.size, expected, strict=True))
        assert image.info["dpi"] == pytest.approx((150, 150), abs=0.02)  # pixels per metre
        # Something is drawn: not a blank page.
        darkest, lightest = image.convert("L").getextrema()
        assert darkest < 100 < lightest


def test_preview_command_writes_the_png_and_reports_time(tmp_path: Path) -> None:
    path = tmp_path / "t.png"
    result = run("preview", "takao", "--component", "marker", "--png", str(path), "--dpi", "72")
    assert result.exit_code == 0, result.output
    assert re.fullmatch(rf"wrote {re.escape(str(path))} \(naval-action marker, 596x842 px at "
                        r"72 dpi, rendered in \d+ ms\)\n", result.output)
    assert path.read_bytes().startswith(b"\x89PNG")


def test_preview_names_what_does_not_exist(tmp_path: Path) -> None:
    result = run("preview", "takoa", "--png", str(tmp_path / "x.png"))
    assert (result.exit_code, result.output) == (2, "error: no class 'takoa'; did you mean "
                                                    "'takao'?\n")
    result = run("preview", "gato", "--ruleset", "surface-action")
    assert result.exit_code == 2
    assert result.output.startswith("error: Surface Action does not rate the class 'gato': ")
    assert not (tmp_path / "x.png").exists()


def test_watch_rebuilds_on_change_and_keeps_the_last_good_output(tmp_path: Path) -> None:
    from generator.core.output import write_atomic
    from generator.kit.preview import preview
    from generator.kit.watch import Watcher

    folder = tmp_path / "mine"
    folder.mkdir()
    source = ROOT / "shipdata/classes/jp/takao.yaml"
    text = source.read_text(encoding="utf-8")
    (folder / "takao.yaml").write_text(text.replace("name: Takao\n", "name: Test Takao\n", 1),
                                       encoding="utf-8")
    target = folder / "preview.png"  # inside the folder: the watcher must not see itself
    builds: list[int] = []

    def build() -> list[str]:
        builds.append(1)
        made = preview("takao", kind="card", dpi=50, data=[folder])
        write_atomic(target, made.png)
        return [f"wrote {target}"]

    shown: list[tuple[bool, list[str]]] = []
    watcher = Watcher(folder, build, ignore=(target,))
    steps = iter([
        lambda: None,  # nothing changed: no rebuild
        lambda: (folder / "takao.yaml").write_text(
            text.replace("speed_kn: 35.5", "speed_kn: fast"), encoding="utf-8"),
        lambda: (folder / "takao.yaml").write_text(text, encoding="utf-8"),
    ])
    good: list[bytes] = []

    def sleep(_: float) -> None:
        if target.exists():
            good.append(target.read_bytes())
        next(steps)()

    watcher.run(lambda o: shown.append((o.ok, o.lines)), iterations=3, sleep=sleep)
    assert len(builds) == 3  # the first build, the broken file, the mended file
    assert [ok for ok, _ in shown] == [True, False, True]
    assert shown[1][1] == [
        f"{folder / 'takao.yaml'}:31:11: speed_kn: found 'fast', expected a number",
        "error: 1 problem in the data", f"kept the last good output: {target}"]
    assert good[1] == good[2]  # the broken data left the last good preview alone
    assert target.read_bytes() != good[2]  # the mended file changed the name on the card


def test_watch_once_shows_located_errors_and_exits_2(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    assert run("new-class", "my-dd", "--out", str(folder)).exit_code == 0
    result = CliRunner().invoke(main, ["watch", str(folder), "--once",
                                       "--png", str(tmp_path / "p.png")])
    assert result.exit_code == 2
    assert "found placeholder '<fill in: ship name>'" in result.stderr
    assert result.stderr.splitlines()[-1] == "nothing built yet"
    assert not (tmp_path / "p.png").exists()
    path = folder / "my-dd.yaml"
    path.write_text(fill(path.read_text(encoding="utf-8")), encoding="utf-8")
    result = CliRunner().invoke(main, ["watch", str(folder), "--once",
                                       "--png", str(tmp_path / "p.png")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")


# --- item 6: the proof kit ----------------------------------------------------------------

@pytest.fixture(scope="module")
def proof(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    from generator.kit.pipeline import build_class

    out = tmp_path_factory.mktemp("proof")
    texts: dict[str, list[str]] = {}
    for result in build_class("takao", out=out):
        document = pdfium.PdfDocument(result.folder / "takao.pdf")
        texts[result.folder.name] = [page.get_textpage().get_text_range()
                                     for page in document]
        document.close()
    return texts


def test_proof_kit_for_every_ruleset_that_rates_the_class(proof: dict[str, list[str]]) -> None:
    from generator.kit.pipeline import raters, validated_library

    rating = raters(validated_library([]), "takao")
    assert {"naval-action", "surface-action"} <= set(rating)
    assert sorted(proof) == sorted(rating)


def test_naval_action_proof_has_markers_entry_and_reference_matchups(
        proof: dict[str, list[str]]) -> None:
    pages = proof["naval-action"]
    assert any("previous turn" in p and "BOW 6 × 8in" in p for p in pages)  # markers
    # the class's own Master List entry, under the proof's title, without the rest of the list
    [entry] = [p.replace("\r", "") for p in pages if "The class in the Master List" in p
               and "How to print this packet" not in p]
    assert entry.split("\n")[0] == "The class in the Master List"
    assert re.findall(r"^.+ \([A-Z]{2}\)$", entry, re.M) == ["Imperial Japanese Navy (JP)"]
    assert "CA Takao, Atago †, Maya †, Chōkai † 668.5 5 35.5 BOW 6×8in CF5" in entry
    # firers share pages (issue 29): every heading line, in order
    firing = [line.strip() for p in pages for line in p.replace("\r", "").split("\n")
              if line.strip().endswith("against every enemy, resolved")]
    assert firing == [
        "Takao (Takao class CA) against every enemy, resolved",
        "Fletcher (Fletcher class DD) against every enemy, resolved",
        "Atlanta (Atlanta class CLAA) against every enemy, resolved",
        "New Orleans (New Orleans class CA) against every enemy, resolved",
        "South Dakota (South Dakota class BB) against every enemy, resolved"]


def test_surface_action_proof_has_counters_catalog_entry_and_matchups(
        proof: dict[str, list[str]]) -> None:
    pages = proof["surface-action"]
    assert any("Turn counters" in p and "Takao" in p for p in pages)
    assert any("Surface Action ship classes" in p and "Takao" in p for p in pages)
    # The print note (page 1) lists the section too; the page itself is the other one.
    matchups = [p for p in pages if "Matchups against reference classes" in p
                and "How to print this packet" not in p]
    assert len(matchups) == 1
    text = " ".join(matchups[0].split())
    assert "(Second Naval Battle of Guadalcanal weapons table)" in text
    assert "Takao (Takao CA)" in text and "8in bow ×6" in text
    for target in ("Fletcher class DD", "Atlanta class CL", "New Orleans class CA",
                   "South Dakota class BB"):
        assert target in text
    assert "Night:" not in text  # a proof fires in daylight


def test_a_proof_without_a_weapons_table_says_why(tmp_path: Path) -> None:
    from generator.kit.pipeline import build_class

    (result,) = build_class("bismarck", rulesets=["surface-action"], out=tmp_path)
    assert result.warnings == [
        # the fire counter's note has no word to cut to fit 13 mm at 6 pt: reported once
        "label 'seen +12 in at night' printed as 'seen +12 in at night' at 5.34 pt "
        "(below 6 pt) on 1 piece: fire.ship",
        "No scenario's weapons table rates every weapon of the Bismarck class and its "
        "reference classes (15in, 16in, 21in, 4in, 5in, 6in, 8in), so this proof has no "
        "matchups; a scenario (--data) whose table rates them adds them."]


def test_import_reads_numbers_as_written_and_can_require_a_ruleset(tmp_path: Path) -> None:
    sheet = tmp_path / "n.csv"
    # No ranges or rounds: NAVAL ACTION cannot rate the class; "4,5" is no number.
    sheet.write_text(
        "id,name,nation,type,ships.name,ships.commissioned,length (ft),displacement_t,speed_kn,"
        "armor.belt_in,guns.0.position,guns.0.guns,guns.0.bore_in,sources\n"
        'my-dd,My DD,UK,DD,First,1940-01-01,350.555,"1,600","4,5",0,BOW,2,4.7,Test (test): all\n',
        encoding="utf-8")
    result = CliRunner().invoke(main, ["import", str(sheet), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"{sheet}:2:9: speed_kn: found '4,5', expected a number", "error: 1 problem in the data"]
    sheet.write_text(sheet.read_text().replace('"4,5"', "36"), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", str(sheet), "--out", str(tmp_path / "o"),
                                       "--ruleset", "surface-action"])
    assert result.exit_code == 0, result.output
    model = _classes_in(tmp_path / "o")["my-dd"]
    assert (model.displacement_t, model.length_ft) == (1600, 350.555)  # type: ignore[attr-defined]
    result = CliRunner().invoke(main, ["import", str(sheet), "--out", str(tmp_path / "o2"),
                                       "--ruleset", "naval-action"])
    assert result.exit_code == 2
    assert result.stderr.splitlines()[0].startswith(
        f"{sheet}:2:1: id: found a class naval-action cannot rate (")
    assert not (tmp_path / "o2").exists()


def test_every_class_ruleset_scaffolds_the_shared_class(tmp_path: Path) -> None:
    from generator.data.library import load_library
    from generator.kit.seam import new_class_yaml
    from generator.rulesets import REGISTRY

    for ruleset in REGISTRY.values():
        if ruleset.class_model is None:
            continue
        text = ruleset.new_class_yaml("my-dd", "US", "DD")
        assert text == new_class_yaml("my-dd", "US", "DD")
        (tmp_path / "my-dd.yaml").write_text(text, encoding="utf-8")
        library = load_library([tmp_path], bundled=False)
        assert len(library.problems) == 14  # untouched, it cannot pass
        assert all("found placeholder" in p.message for p in library.problems)


def test_watch_keeps_a_proof_kit_up_to_date(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    assert run("new-class", "my-dd", "--out", str(folder)).exit_code == 0
    path = folder / "my-dd.yaml"
    path.write_text(fill(path.read_text(encoding="utf-8")), encoding="utf-8")
    result = CliRunner().invoke(main, ["watch", str(folder), "--proof", "--once",
                                       "--ruleset", "naval-action",
                                       "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    kit = tmp_path / "out" / "class-my-dd" / "naval-action" / "my-dd.pdf"
    assert result.output == f"wrote {kit}\n"
    assert kit.read_bytes().startswith(b"%PDF")
