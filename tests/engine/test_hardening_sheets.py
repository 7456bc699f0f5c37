"""Hostile spreadsheets for ``quarterdeck import`` (issue 35 item 4).

The corpus in ``tests/hostile_corpus/sheets/`` (written by its ``make.py``, one attack a
file, each named for it) runs through the real command line in this process
(``tests/hostile.run_cli``: exit 0 or a located exit 2, no traceback, no process started,
no canary file opened), each with its exact outcome: the problem lines, or the class file
written. A sheet is bounded by what it really holds (its parts, their compression and
XML elements, the cells holding values), not by what it declares; every failure of
openpyxl is a located problem; a number out of range in a header's unit is refused at its
cell; the sheet's file name is escaped where the class file names it.

tests/engine/test_fuzz.py mutates a valid exported workbook (cells' values and types, the XML of
its parts, its bytes), each import ending in success or a located exit 2.
"""

from __future__ import annotations

import importlib.util
import io
import os
import re
import shutil
import time
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from tests.hostile import run_cli
from tests.paths import ROOT

CORPUS = ROOT / "tests" / "hostile_corpus" / "sheets"
EXAMPLES = int(os.environ.get("QUARTERDECK_FUZZ_EXAMPLES", "24"))
SECONDS = 8.0
"""The most one case may take in this process. Most take a tenth of a second (the first
import, which loads the rulesets, about two); the bound catches a sheet read for a million
rows or styles parsed for minutes (as before issue 35), not a busy machine."""
CANARIES = (Path("/etc/passwd"),)
"""What the corpus's entities and external links point at."""
DOCTYPE = "found a DOCTYPE in the part {}, expected none (a workbook's XML declares no entities)"


def _make() -> ModuleType:
    spec = importlib.util.spec_from_file_location("sheets_make", CORPUS / "make.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SLOW_TO_MAKE = {"styles-3000000-entries.xlsx": ("xl/styles.xml", 15_000_672),
                "zip-bomb-sheet-of-spaces.xlsx": ("xl/worksheets/sheet1.xml", 10_001_695)}
OK = None
"""The case imports (exit 0): the class file is checked against the good one."""
ROWS = "found more than 10000 rows, expected at most 10000 rows of classes and ships after " \
       "the header"
CASES: dict[str, list[str | re.Pattern[str]] | None] = {
    "good.xlsx": OK,
    "good.csv": OK,
    # Bounded by what the sheet really holds.
    "far-cell-a1048576.xlsx": [f"far-cell-a1048576.xlsx:Sheet1!A1048576: {ROWS}"],
    "far-empty-styled-cell-a1048576.xlsx": OK,
    "far-column-xfd.xlsx": ["far-column-xfd.xlsx:Sheet1!XFD2: found a value in column 16384, "
                            "expected at most 500 columns"],
    "styles-3000000-entries.xlsx": [
        "styles-3000000-entries.xlsx: found the part 'xl/styles.xml' compressed 5827 to 1 "
        "(15 MB), expected at most 100 to 1 (a zip bomb?)"],
    "styles-30000-entries.xlsx": [
        "styles-30000-entries.xlsx: found more than 20,000 XML elements in the part "
        "'xl/styles.xml', expected at most 20,000"],
    "zip-bomb-sheet-of-spaces.xlsx": [
        "zip-bomb-sheet-of-spaces.xlsx: found the part 'xl/worksheets/sheet1.xml' compressed "
        "4968 to 1 (10 MB), expected at most 100 to 1 (a zip bomb?)"],
    "zip-bomb-declared-size.xlsx": [
        "zip-bomb-declared-size.xlsx: found 300 MB inside the workbook, expected at most "
        "200 MB"],
    "zip-lying-size-bad-crc.xlsx": [
        "zip-lying-size-bad-crc.xlsx: found a part that cannot be unpacked "
        "('xl/worksheets/sheet1.xml': BadZipFile: Bad CRC-32 for file "
        "'xl/worksheets/sheet1.xml'), expected an Excel .xlsx file"],
    "deep-nesting-in-sheet.xlsx": [
        "deep-nesting-in-sheet.xlsx: found XML elements nested more than 100 deep in the part "
        "'xl/worksheets/sheet1.xml', expected at most 100"],
    "not-a-zip.xlsx": ["not-a-zip.xlsx: found a file that is not an .xlsx workbook (File is "
                       "not a zip file), expected an Excel .xlsx file"],
    "empty-file.xlsx": ["empty-file.xlsx: found a file that is not an .xlsx workbook (File "
                        "is not a zip file), expected an Excel .xlsx file"],
    # Entities, declared anywhere.
    "xxe-file-entity-in-sheet.xlsx": [
        "xxe-file-entity-in-sheet.xlsx: " + DOCTYPE.format("'xl/worksheets/sheet1.xml'")],
    "xxe-in-content-types.xlsx": [
        "xxe-in-content-types.xlsx: " + DOCTYPE.format("'[Content_Types].xml'")],
    "xxe-parameter-entity-in-rels.xlsx": [
        "xxe-parameter-entity-in-rels.xlsx: " + DOCTYPE.format("'_rels/.rels'")],
    "billion-laughs-in-styles.xlsx": [
        "billion-laughs-in-styles.xlsx: " + DOCTYPE.format("'xl/styles.xml'")],
    "billion-laughs-in-shared-strings.xlsx": [
        "billion-laughs-in-shared-strings.xlsx: " + DOCTYPE.format("'xl/sharedStrings.xml'")],
    # What openpyxl's full load failed on: parts the sheet does not need.
    "broken-comments-xml.xlsx": [
        "broken-comments-xml.xlsx: found XML that cannot be read in the part "
        "'xl/comments1.xml' (line 2, column 88: mismatched tag), expected a well-formed "
        "workbook part"],
    "broken-drawing-xml.xlsx": [
        "broken-drawing-xml.xlsx: found XML that cannot be read in the part "
        "'xl/drawings/drawing1.xml' (line 2, column 1: unbound prefix), expected a "
        "well-formed workbook part"],
    # The set in openpyxl's message is printed in hash order.
    "bad-data-validation.xlsx": [re.compile(
        r"bad-data-validation\.xlsx:Sheet1: found a sheet that cannot be read \(ValueError: "
        r"Value must be one of \{.*, expected an Excel \.xlsx worksheet")],
    "unknown-hyperlink-relationship.xlsx": OK,
    "bad-merge-reference.xlsx": [
        "bad-merge-reference.xlsx:Sheet1: found merged cells 'B0:ZZZZ' (not a range), "
        "expected one value in each cell (unmerge them)"],
    "merged-cells.xlsx": ["merged-cells.xlsx:Sheet1!B2: found merged cells B2:C2, expected "
                          "one value in each cell (unmerge them)"],
    "external-link-to-a-file.xlsx": OK,  # never followed
    "external-link-unknown-relationship.xlsx": OK,
    "no-worksheet.xlsx": ["no-worksheet.xlsx: found a workbook without a worksheet, expected "
                          "the classes on its first sheet"],
    "no-workbook-part.xlsx": ["no-workbook-part.xlsx: found an unreadable workbook (OSError: "
                              "File contains no valid workbook part), expected an Excel .xlsx "
                              "file"],
    # Cells openpyxl fails on or misreads, each at its cell.
    "date-t-d-out-of-range.xlsx": [
        "date-t-d-out-of-range.xlsx:Sheet1!F2: found the date '99999-01-01', expected an "
        "ISO 8601 date such as 1940-01-31"],
    "date-serial-out-of-range.xlsx": [
        "date-serial-out-of-range.xlsx:Sheet1!F2: found the date serial number 1e12, "
        "expected a date from 1900 to 9999"],
    "cell-error-value.xlsx": ["cell-error-value.xlsx:Sheet1!H2: found the error value "
                              "'#DIV/0!', expected a value (correct the cell)"],
    "shared-string-without-strings.xlsx": [
        "shared-string-without-strings.xlsx:Sheet1!B2: found the shared text number '0', "
        "expected none (the workbook holds no shared texts)"],
    "bool-t-b-nan.xlsx": ["bool-t-b-nan.xlsx:Sheet1!I2: found the true/false value 'nan', "
                          "expected 0 or 1"],
    "number-nan.xlsx": ["number-nan.xlsx:Sheet1!H2: found the number 'nan', expected a "
                        "number such as 12.5"],
    "number-1e999.xlsx": ["number-1e999.xlsx:Sheet1!H2: found the number '1e999', expected "
                          "a finite number"],
    "number-4400-digits.xlsx": [
        "number-4400-digits.xlsx:Sheet1!H2: found the number "
        "'9999999999999999999999999999999999999...', expected a number such as 12.5"],
    "shared-string-index-out-of-range.xlsx": [
        "shared-string-index-out-of-range.xlsx:Sheet1!B2: found the shared text number '7', "
        "expected one of the workbook's 1 texts (0 to 0)"],
    "shared-string-index-negative.xlsx": [
        "shared-string-index-negative.xlsx:Sheet1!B2: found the shared text number '-1', "
        "expected one of the workbook's 1 texts (0 to 0)"],
    "huge-shared-string.xlsx": ["huge-shared-string.xlsx:Sheet1!B2: name: found 60000 "
                                "characters, expected at most 50000 in a cell"],
    "unknown-cell-type.xlsx": ["unknown-cell-type.xlsx:Sheet1!H2: found the cell type 'x', "
                               "expected one of b, d, e, inlineStr, n, s, str"],
    "bad-cell-reference.xlsx": ["bad-cell-reference.xlsx:Sheet1!H2: found the cell reference "
                                "'1H', expected one such as 'B2'"],
    "cell-outside-its-row.xlsx": ["cell-outside-its-row.xlsx:Sheet1!H2: found the cell H9 in "
                                  "row 2, expected each cell in its own row"],
    "rows-out-of-order.xlsx": ["rows-out-of-order.xlsx:Sheet1!A2: found row 1 after row 2, "
                               "expected rows in increasing order"],
    "row-number-not-whole.xlsx": ["row-number-not-whole.xlsx:Sheet1: found the row number "
                                  "'2.5', expected a whole number"],
    "formula-dde-cmd.xlsx": ["formula-dde-cmd.xlsx:Sheet1!B2: found the formula "
                             "'=cmd|' /C calc'!A0', expected a value (paste the values "
                             "instead)"],
    "formula-shared-without-text.xlsx": [
        "formula-shared-without-text.xlsx:Sheet1!G2: found a formula shared from another "
        "cell, expected a value (paste the values instead)"],
    "formula-text-as-a-value.xlsx": OK,  # text that looks like a formula is only text
    # Numbers bounded.
    "unit-1e306-km.xlsx": ["unit-1e306-km.xlsx:Sheet1!G2: length_ft: found 1e+306 km, "
                           "expected a length from -1e+09 to 1e+09 ft"],
    "negative-sizes.xlsx": [
        "negative-sizes.xlsx:Sheet1!G2: length_ft: found -328.08, expected a number of at "
        "least 50",
        "negative-sizes.xlsx:Sheet1!K2: guns.0.guns: found -4, expected a number of at least 1",
        "negative-sizes.xlsx:Sheet1!L2: guns.0.bore_in: found -4.72, expected a number "
        "greater than 0"],
    # CSV.
    "csv-not-utf8.csv": ["csv-not-utf8.csv: found bytes that are not UTF-8 at byte 188, "
                         "expected a UTF-8 CSV file (save it as 'CSV UTF-8')"],
    "csv-nul-byte.csv": OK,
    "csv-nan-speed-inf-length.csv": [
        # Text is not a number (issue 30: numbers are strict), whatever it spells.
        "csv-nan-speed-inf-length.csv:2:7: length_ft: found 'inf', expected a number",
        "csv-nan-speed-inf-length.csv:2:8: speed_kn: found 'nan', expected a number"],
    "csv-1e306-km.csv": ["csv-1e306-km.csv:2:7: length_ft: found 1e+306 km, expected a "
                         "length from -1e+09 to 1e+09 ft"],
    "csv-formula-dde.csv": OK,
    "csv-unclosed-quote.csv": [  # the rest of the file is one cell
        "csv-unclosed-quote.csv:2:1: armor: found nothing, expected a mapping (required)",
        "csv-unclosed-quote.csv:2:1: length_ft: found nothing, expected a number (required)",
        "csv-unclosed-quote.csv:2:1: nation: found nothing, expected one of US, UK, AU, CA, "
        "NZ, IN, JP, DE, IT, FR, NL, SU, PL, GR, NO, IL, SY, EG, AR (required)",
        "csv-unclosed-quote.csv:2:1: ships: found nothing, expected a list (required)",
        "csv-unclosed-quote.csv:2:1: sources: found nothing, expected a list (required)",
        "csv-unclosed-quote.csv:2:1: speed_kn: found nothing, expected a number (required)",
        "csv-unclosed-quote.csv:2:1: type: found nothing, expected one of BB, BC, CV, CVL, "
        "CVE, CA, CL, CLAA, DL, DD, DE, TB, SS, AK, AP, AKL, AKS, FF, PG, MS, LPD (required)",
        "csv-unclosed-quote.csv:2:2: name: found 'My DD,UK,DD,First,1940-01-01,100,36,0...', "
        "expected text of at most 60 character(s)"],
    "csv-501-columns.csv": ["csv-501-columns.csv:1:501: found 501 columns, expected at most "
                            "500"],
    # A cell of YAML goes through the one bounded loader.
    "yaml-cell-billion-laughs.csv": ["yaml-cell-billion-laughs.csv:2:16: ratings: found too "
                                     "many values, expected a small YAML value"],
    "yaml-cell-python-tag.csv": [
        "yaml-cell-python-tag.csv:2:16: ratings: found YAML tag "
        "'tag:yaml.org,2002:python/object/apply:os.system', expected plain YAML (tags that "
        "construct objects are refused)"],
    "yaml-cell-deep-nesting.csv": [
        "yaml-cell-deep-nesting.csv:2:16: ratings: found YAML that cannot be read (exceeded "
        "maximum nesting depth), expected YAML such as {key: value} or [a, b]"],
    "yaml-cell-recursive-alias.csv": [
        "yaml-cell-recursive-alias.csv:2:16: ratings: found an alias inside its own anchor (a "
        "value that contains itself), expected data that ends"],
}
NAMES = {  # the good CSV under a hostile name: (name, the origin its class file records)
    "newline-injects-keys": ("evil\nkind: scenario\nid: pwned\n.csv",
                             "evil\\nkind: scenario\\nid: pwned\\n.csv"),
    "colon": ("a: b.csv", "a: b.csv"),
    "hash": ("a # b.csv", "a # b.csv"),
    "carriage-return-and-escape": ("a\r\x1b[31mb.csv", "a\\r\\x1b[31mb.csv"),
    "unicode-line-separators": ("a\u2028b\x85c.csv", "a\\u2028b\\x85c.csv"),
    "undecodable-byte": ("a\udcffb.csv", "a\\udcffb.csv"),
}
GOOD_CLASS = {  # what good.csv's class file holds
    "kind": "ship-class", "id": "my-dd", "name": "My DD", "nation": "UK", "type": "DD",
    "length_ft": 328.08, "speed_kn": 36.0, "armor": {"belt_in": 0.0},
    "guns": [{"position": "BOW", "guns": 4, "bore_in": 4.72, "max_range_yd": 16000,
              "rounds_per_gun": 200}],
    "ships": [{"name": "First", "commissioned": "1940-01-01"}],
    "sources": ["Test (test): all"]}


def _import(tmp_path: Path, name: str) -> tuple[int, str, str]:
    """Run ``import NAME --out out`` in ``tmp_path``, timed."""
    start = time.perf_counter()
    code, out, err = run_cli(["import", name, "--out", "out"], *CANARIES)
    assert time.perf_counter() - start < SECONDS, name
    return code, out, err


def _written(tmp_path: Path) -> tuple[str, dict[str, object]]:
    """The one class file written: its text and its data (dates as text)."""
    files = list((tmp_path / "out").rglob("*.yaml"))
    assert len(files) == 1, files
    text = files[0].read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    for ship in data.get("ships", []):
        ship["commissioned"] = str(ship["commissioned"])
    return text, data


def test_the_corpus_is_the_table() -> None:
    found = sorted(p.name for p in CORPUS.iterdir() if p.suffix in (".xlsx", ".csv"))
    assert found == sorted(CASES)
    assert len(found) >= 30
    assert all((CORPUS / name).stat().st_size < 20_000 for name in found)


def _listing(blob: bytes) -> list[tuple[str, int, int]]:
    """A zip's parts: name, size and CRC as its directory records them (whatever deflated
    them: zlib's output may differ between builds, the CRC of what it packed does not)."""
    with zipfile.ZipFile(io.BytesIO(blob)) as archive:
        return [(i.filename, i.file_size, i.CRC) for i in archive.infolist()]


def test_make_py_rebuilds_the_corpus() -> None:
    """The committed files are what make.py writes, part for part.

    The two that unpack to megabytes take make.py seconds to compress: their biggest
    part's size is checked, not rebuilt.
    """
    make = _make()
    assert sorted({**make.XLSX, **make.CSV}) == sorted(CASES)
    for name in CASES:
        committed = (CORPUS / name).read_bytes()
        if name in SLOW_TO_MAKE:
            part, size = SLOW_TO_MAKE[name]
            assert (part, size) in [(n, s) for n, s, _ in _listing(committed)], name
            continue
        built = {**make.XLSX, **make.CSV}[name]()
        if committed.startswith(b"PK"):
            assert _listing(built) == _listing(committed), name
        else:
            assert built == committed, name


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_sheet(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(CORPUS / name, tmp_path / name)
    code, out, err = _import(tmp_path, name)
    expected = CASES[name]
    if expected is OK:
        assert code == 0, err
        text, data = _written(tmp_path)
        assert text.startswith(f"# Imported from {name} row 2 by `quarterdeck import`.\n")
        good = dict(GOOD_CLASS)
        if "formula" in name:
            good["name"] = "=cmd|' /C calc'!A0"
        elif "nul" in name:
            good["name"] = "My\0DD"
        assert data == good
        return
    assert code == 2, out + err
    lines = err.splitlines()
    count = len(expected)
    assert lines[-1] == f"error: {count} problem{'s' if count != 1 else ''} in the data"
    assert len(lines) == count + 1, err
    for line, want in zip(lines, expected, strict=False):
        if isinstance(want, re.Pattern):
            assert want.fullmatch(line), line
        else:
            assert line == want
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("case", sorted(NAMES))
def test_the_file_name_is_escaped_in_the_class_file(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    case: str) -> None:
    name, origin = NAMES[case]
    monkeypatch.chdir(tmp_path)
    shutil.copy(CORPUS / "good.csv", tmp_path / name)
    code, _, err = _import(tmp_path, name)
    assert code == 0, err
    text, data = _written(tmp_path)
    first, rest = text.split("\n", 1)
    assert first == f"# Imported from {origin} row 2 by `quarterdeck import`."
    assert first.isprintable() and rest.startswith("kind: ship-class\n")
    assert data == GOOD_CLASS  # exactly the class's keys: nothing injected
    checked = run_cli(["check", "out"])
    assert checked[0] == 0, checked


@pytest.mark.parametrize(("name", "line"), [
    ("no\nsuch: file.csv", "error: no\\nsuch: file.csv: found no such file, expected a .csv "
                           "or .xlsx spreadsheet"),
    ("a\nb.txt\x1b[2J", "error: a\\nb.txt\\x1b[2J: found a '.txt\\x1b[2j' file, expected a "
                        ".csv or .xlsx spreadsheet"),
])
def test_a_hostile_name_is_one_escaped_line_in_a_usage_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, line: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = _import(tmp_path, name)
    assert (code, err) == (2, line + "\n")


def test_an_existing_class_file_is_named_escaped(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(CORPUS / "good.csv", tmp_path / "good.csv")
    out = "o\nut"
    assert run_cli(["import", "good.csv", "--out", out])[0] == 0
    code, _, err = run_cli(["import", "good.csv", "--out", out])
    assert (code, err) == (2, "error: o\\nut/uk/my-dd.yaml already exist; not overwriting "
                              "them (choose another --out)\n")


def test_too_many_parts_and_elements(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bounds too costly to reach in a committed file, reached with smaller limits."""
    from generator.data import xlsxscan

    monkeypatch.chdir(tmp_path)
    make = _make()
    parts = make.workbook()
    (tmp_path / "parts.xlsx").write_bytes(make.zipped(
        {**parts, **{f"x/{n}.bin": b"" for n in range(1000)}}))
    assert _import(tmp_path, "parts.xlsx")[2].splitlines()[0] == (
        "parts.xlsx: found 1006 parts inside the workbook, expected at most 1000")
    monkeypatch.setattr(xlsxscan, "MAX_ELEMENTS", 500)
    (tmp_path / "elements.xlsx").write_bytes(make.zipped(make.workbook(make.sheet_xml(
        before="<sheetViews>" + "<sheetView/>" * 500 + "</sheetViews>"))))
    assert _import(tmp_path, "elements.xlsx")[2].splitlines()[0] == (
        "elements.xlsx: found more than 500 XML elements (the part "
        "'xl/worksheets/sheet1.xml' goes over), expected at most 500 in the workbook")
    monkeypatch.setattr(xlsxscan, "MAX_ELEMENTS", 2_000_000)
    monkeypatch.setattr(xlsxscan, "MAX_CELLS", 20)
    assert _import(tmp_path, "elements.xlsx")[2].splitlines()[0] == (
        "elements.xlsx:Sheet1!F2: found more than 20 cells holding values, expected at most 20")


def test_units_bound_every_number() -> None:
    from generator.core.units import convert, parse_length

    assert convert(100, "m", "ft") == pytest.approx(328.084, abs=1e-3)
    for value in (1e306, float("inf"), float("nan"), -1e10):
        with pytest.raises(ValueError, match=r"^found .* km, expected a length from "
                                             r"-1e\+09 to 1e\+09 ft$"):
            convert(value, "km", "ft")
    with pytest.raises(ValueError, match="expected units of one quantity"):
        convert(1, "km", "kn")
    with pytest.raises(ValueError, match="expected a length"):
        parse_length("1" + "0" * 400 + "mm")
    with pytest.raises(ValueError, match="expected a length"):
        parse_length(float("inf"))


@pytest.mark.parametrize("text", ["\tcmd", "\rcmd", "\uff1dHYPERLINK(1)", "=1+1", "@SUM(1)"])
def test_exported_text_that_reads_as_a_formula_is_quoted_and_read_back(text: str) -> None:
    """export_csv quoted = + - @ only; OWASP lists tab and CR too (and full-width forms)."""
    from generator.data.sheetexport import _csv_cell
    from generator.data.spreadsheet import _as_text

    written = _csv_cell(text)
    assert written == "'" + text
    assert _as_text(written) == text  # the import strips the quote again: a round trip
