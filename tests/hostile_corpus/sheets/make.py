"""Write the hostile spreadsheet corpus (issue 35 item 4): ``python make.py [FOLDER]``.

Every .xlsx is built here from scratch, part by part (no openpyxl: its files carry the time
they were saved), with fixed zip dates, so the files are reproducible; each is one attack on
``quarterdeck import``, named for it, and small (the compressed ones unpack to megabytes).
The .csv files are plain bytes. ``tests/engine/test_hardening_sheets.py`` runs every file and holds
the exact outcome each must have; it also checks that this script rebuilds the committed
files part for part.
"""

from __future__ import annotations

import struct
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
DOC_RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

HEADER = ["id", "name", "nation", "type", "ships.name", "ships.commissioned", "length (m)",
          "speed_kn", "armor.belt (mm)", "guns.0.position", "guns.0.guns", "guns.0.bore (mm)",
          "guns.0.max_range_yd", "guns.0.rounds_per_gun", "sources"]
ROW: list[str | int | float] = ["my-dd", "My DD", "UK", "DD", "First", "1940-01-01", 100, 36,
                                0, "BOW", 4, 120, 16000, 200, "Test (test): all"]
"""A class that imports cleanly: every case below changes one thing."""

STYLES = (f'{DECL}<styleSheet xmlns="{MAIN}"><numFmts count="0"/>'
          '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
          '<fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
          '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border>'
          '</borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" '
          'borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" '
          'fillId="0" borderId="0" xfId="0"/><xf numFmtId="14" fontId="0" fillId="0" '
          'borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs></styleSheet>')
"""Style 1 is a date (number format 14): a number in a cell of that style is a date."""


def column(index: int) -> str:
    """The column's letters (1 -> A, 27 -> AA)."""
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def cell(ref: str, value: str | int | float) -> str:
    """One cell: a number as a number, text inline."""
    if isinstance(value, int | float):
        return f'<c r="{ref}"><v>{value}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t>{escape(value)}</t></is></c>'


def row_xml(number: int, values: list[str | int | float], raw: dict[int, str] | None = None,
            ) -> str:
    """A row; ``raw`` replaces the cell of a column (1-based) with the XML given."""
    cells = []
    for index, value in enumerate(values, start=1):
        if raw and index in raw:
            cells.append(raw[index])
        else:
            cells.append(cell(f"{column(index)}{number}", value))
    return f'<row r="{number}">{"".join(cells)}</row>'


def sheet_xml(rows: str | None = None, before: str = "", after: str = "",
              dimension: str = "A1:O2") -> str:
    """The worksheet: the header and ``ROW`` unless ``rows`` (the sheetData's XML) is given."""
    if rows is None:
        rows = row_xml(1, list(HEADER)) + row_xml(2, ROW)
    return (f'{DECL}<worksheet xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><dimension '
            f'ref="{dimension}"/>{before}<sheetData>{rows}</sheetData>{after}</worksheet>')


def workbook(sheet: str | None = None, *, styles: str | None = STYLES,
             strings: str | None = None, extra: dict[str, str] | None = None,
             sheet_rels: str | None = None, book: str | None = None,
             book_rels: str = "", types: str = "") -> dict[str, str | bytes]:
    """The parts of a workbook of one sheet (``Sheet1``), each replaceable."""
    overrides = ('<Override PartName="/xl/workbook.xml" ContentType="application/'
                 'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                 '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
                 'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>')
    if styles is not None:
        overrides += ('<Override PartName="/xl/styles.xml" ContentType="application/'
                      'vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>')
    if strings is not None:
        overrides += ('<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
                      'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>')
    parts: dict[str, str | bytes] = {
        "[Content_Types].xml": (
            f'{DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/'
            'content-types"><Default Extension="rels" ContentType="application/'
            'vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" '
            f'ContentType="application/xml"/>{overrides}{types}</Types>'),
        "_rels/.rels": (
            f'{DECL}<Relationships xmlns="{RELS}"><Relationship Id="rId1" '
            f'Type="{DOC_RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>'),
        "xl/workbook.xml": book if book is not None else (
            f'{DECL}<workbook xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><sheets><sheet '
            'name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>'),
        "xl/_rels/workbook.xml.rels": (
            f'{DECL}<Relationships xmlns="{RELS}"><Relationship Id="rId1" '
            f'Type="{DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/>'
            + (f'<Relationship Id="rId2" Type="{DOC_RELS}/styles" Target="styles.xml"/>'
               if styles is not None else "")
            + (f'<Relationship Id="rId3" Type="{DOC_RELS}/sharedStrings" '
               'Target="sharedStrings.xml"/>' if strings is not None else "")
            + f"{book_rels}</Relationships>"),
        "xl/worksheets/sheet1.xml": sheet if sheet is not None else sheet_xml(),
    }
    if styles is not None:
        parts["xl/styles.xml"] = styles
    if strings is not None:
        parts["xl/sharedStrings.xml"] = strings
    if sheet_rels is not None:
        parts["xl/worksheets/_rels/sheet1.xml.rels"] = (
            f'{DECL}<Relationships xmlns="{RELS}">{sheet_rels}</Relationships>')
    parts.update(extra or {})
    return parts


def zipped(parts: dict[str, str | bytes], lzma: tuple[str, ...] = ()) -> bytes:
    """The parts as a zip with fixed dates, deflated at the highest level (the parts named
    in ``lzma`` compressed with LZMA, which packs a long run into a few bytes)."""
    import io

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in parts.items():
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_LZMA if name in lzma else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, data.encode() if isinstance(data, str) else data,
                             compresslevel=9)
    return buffer.getvalue()


def with_cell(col: int, xml: str) -> bytes:
    """The good workbook with one cell of row 2 (column ``col``) written as ``xml``."""
    return zipped(workbook(sheet_xml(row_xml(1, list(HEADER)) + row_xml(2, ROW, {col: xml}))))


def declared_size(data: bytes, name: str, size: int) -> bytes:
    """The zip with ``name``'s unpacked size in the central directory changed to ``size``."""
    start = 0
    while True:
        entry = data.index(b"PK\x01\x02", start)
        length = struct.unpack_from("<H", data, entry + 28)[0]
        if data[entry + 46:entry + 46 + length] == name.encode():
            return data[:entry + 24] + struct.pack("<I", size) + data[entry + 28:]
        start = entry + 4


DOCTYPE_FILE = '<!DOCTYPE x [<!ENTITY secret SYSTEM "file:///etc/passwd">]>'
LAUGHS = ('<!DOCTYPE lolz [<!ENTITY lol0 "lol">'
          + "".join(f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10}">' for n in range(1, 10))
          + "]>")
XLSX: dict[str, Callable[[], bytes]] = {
    # Bounded by what the sheet really holds.
    "far-cell-a1048576.xlsx": lambda: zipped(workbook(sheet_xml(
        row_xml(1, list(HEADER)) + row_xml(2, ROW)
        + '<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>x</t></is></c></row>'))),
    "far-empty-styled-cell-a1048576.xlsx": lambda: zipped(workbook(sheet_xml(
        row_xml(1, list(HEADER)) + row_xml(2, ROW)
        + '<row r="1048576"><c r="A1048576" s="1"/></row>', dimension="A1:O1048576"))),
    "far-column-xfd.xlsx": lambda: with_cell(15, cell("O2", ROW[14]) + cell("XFD2", "x")),
    "styles-3000000-entries.xlsx": lambda: zipped(workbook(styles=STYLES.replace(
        '<cellXfs count="2">', '<cellXfs count="3000002">' + "<xf/>" * 3_000_000)),
        lzma=("xl/styles.xml",)),
    "styles-30000-entries.xlsx": lambda: zipped(workbook(styles=STYLES.replace(
        '<cellXfs count="2">', '<cellXfs count="30002">' + "<xf/>" * 30_000))),
    "zip-bomb-sheet-of-spaces.xlsx": lambda: zipped(workbook(sheet_xml(
        before=" " * 10_000_000)), lzma=("xl/worksheets/sheet1.xml",)),
    "zip-bomb-declared-size.xlsx": lambda: declared_size(
        zipped(workbook(extra={"xl/media/image1.png": b"\0" * 1000})), "xl/media/image1.png",
        300_000_000),
    "zip-lying-size-bad-crc.xlsx": lambda: declared_size(
        zipped(workbook()), "xl/worksheets/sheet1.xml", 100),
    "deep-nesting-in-sheet.xlsx": lambda: zipped(workbook(sheet_xml(
        before="<x>" * 100_000 + "</x>" * 100_000))),
    "not-a-zip.xlsx": lambda: b"id,name\nmy-dd,My DD\n",
    "empty-file.xlsx": lambda: b"",
    # XML that declares entities, anywhere.
    "xxe-file-entity-in-sheet.xlsx": lambda: zipped(workbook(sheet_xml().replace(
        DECL, DECL + DOCTYPE_FILE).replace("<t>My DD</t>", "<t>&secret;</t>"))),
    "xxe-in-content-types.xlsx": lambda: zipped({
        **workbook(), "[Content_Types].xml": str(workbook()["[Content_Types].xml"]).replace(
            DECL, DECL + DOCTYPE_FILE)}),
    "billion-laughs-in-styles.xlsx": lambda: zipped(workbook(styles=STYLES.replace(
        DECL, DECL + LAUGHS).replace('<sz val="11"/>', '<sz val="11"/><name val="&lol9;"/>'))),
    "billion-laughs-in-shared-strings.xlsx": lambda: zipped(workbook(
        sheet_xml(row_xml(1, list(HEADER)) + row_xml(2, ROW, {
            2: '<c r="B2" t="s"><v>0</v></c>'})),
        strings=f'{DECL}{LAUGHS}<sst xmlns="{MAIN}"><si><t>&lol9;</t></si></sst>')),
    "xxe-parameter-entity-in-rels.xlsx": lambda: zipped({
        **workbook(), "_rels/.rels": str(workbook()["_rels/.rels"]).replace(
            DECL, DECL + '<!DOCTYPE r [<!ENTITY % p SYSTEM "file:///etc/passwd"> %p;]>')}),
    # Parts openpyxl's full load would have read and failed on.
    "broken-comments-xml.xlsx": lambda: zipped(workbook(
        sheet_rels=f'<Relationship Id="rId1" Type="{DOC_RELS}/comments" '
                   'Target="../comments1.xml"/>',
        extra={"xl/comments1.xml": f'{DECL}<comments xmlns="{MAIN}"><authors>'
                                   '</comments>'})),
    "broken-drawing-xml.xlsx": lambda: zipped(workbook(
        sheet_xml(after='<drawing r:id="rId1"/>'),
        sheet_rels=f'<Relationship Id="rId1" Type="{DOC_RELS}/drawing" '
                   'Target="../drawings/drawing1.xml"/>',
        extra={"xl/drawings/drawing1.xml": f"{DECL}<xdr:wsDr><xdr:twoCellAnchor>"})),
    "bad-data-validation.xlsx": lambda: zipped(workbook(sheet_xml(
        after='<dataValidations count="1"><dataValidation type="no-such-type" '
              'operator="between" sqref="A2"><formula1>1</formula1></dataValidation>'
              "</dataValidations>"))),
    "unknown-hyperlink-relationship.xlsx": lambda: zipped(workbook(sheet_xml(
        after='<hyperlinks><hyperlink ref="B2" r:id="rId99"/></hyperlinks>'))),
    "bad-merge-reference.xlsx": lambda: zipped(workbook(sheet_xml(
        after='<mergeCells count="1"><mergeCell ref="B0:ZZZZ"/></mergeCells>'))),
    "merged-cells.xlsx": lambda: zipped(workbook(sheet_xml(
        after='<mergeCells count="1"><mergeCell ref="B2:C2"/></mergeCells>'))),
    "external-link-to-a-file.xlsx": lambda: zipped(workbook(
        book=f'{DECL}<workbook xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><sheets><sheet '
             'name="Sheet1" sheetId="1" r:id="rId1"/></sheets><externalReferences>'
             '<externalReference r:id="rId9"/></externalReferences></workbook>',
        book_rels=f'<Relationship Id="rId9" Type="{DOC_RELS}/externalLink" '
                  'Target="externalLinks/externalLink1.xml"/>',
        extra={"xl/externalLinks/externalLink1.xml":
               f'{DECL}<externalLink xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><externalBook '
               'r:id="rId1"/></externalLink>',
               "xl/externalLinks/_rels/externalLink1.xml.rels":
               f'{DECL}<Relationships xmlns="{RELS}"><Relationship Id="rId1" '
               f'Type="{DOC_RELS}/externalLinkPath" Target="file:///etc/passwd" '
               'TargetMode="External"/></Relationships>'})),
    "external-link-unknown-relationship.xlsx": lambda: zipped(workbook(
        book=f'{DECL}<workbook xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><sheets><sheet '
             'name="Sheet1" sheetId="1" r:id="rId1"/></sheets><externalReferences>'
             '<externalReference r:id="rId77"/></externalReferences></workbook>')),
    "no-worksheet.xlsx": lambda: zipped(workbook(
        book=f'{DECL}<workbook xmlns="{MAIN}" xmlns:r="{DOC_RELS}"><sheets/></workbook>')),
    "no-workbook-part.xlsx": lambda: zipped({
        k: v for k, v in workbook().items() if k != "xl/workbook.xml"} | {
        "[Content_Types].xml": str(workbook()["[Content_Types].xml"]).replace(
            "sheet.main+xml", "nothing+xml")}),
    # Cells openpyxl would fail on or misread.
    "date-t-d-out-of-range.xlsx": lambda: with_cell(
        6, '<c r="F2" t="d"><v>99999-01-01</v></c>'),
    "date-serial-out-of-range.xlsx": lambda: with_cell(6, '<c r="F2" s="1"><v>1e12</v></c>'),
    "cell-error-value.xlsx": lambda: with_cell(8, '<c r="H2" t="e"><v>#DIV/0!</v></c>'),
    "shared-string-without-strings.xlsx": lambda: with_cell(2, '<c r="B2" t="s"><v>0</v></c>'),
    "bool-t-b-nan.xlsx": lambda: with_cell(9, '<c r="I2" t="b"><v>nan</v></c>'),
    "number-nan.xlsx": lambda: with_cell(8, '<c r="H2"><v>nan</v></c>'),
    "number-1e999.xlsx": lambda: with_cell(8, '<c r="H2"><v>1e999</v></c>'),
    "number-4400-digits.xlsx": lambda: with_cell(8, f'<c r="H2"><v>{"9" * 4400}</v></c>'),
    "shared-string-index-out-of-range.xlsx": lambda: zipped(workbook(
        sheet_xml(row_xml(1, list(HEADER)) + row_xml(2, ROW, {
            2: '<c r="B2" t="s"><v>7</v></c>'})),
        strings=f'{DECL}<sst xmlns="{MAIN}"><si><t>one</t></si></sst>')),
    "shared-string-index-negative.xlsx": lambda: zipped(workbook(
        sheet_xml(row_xml(1, list(HEADER)) + row_xml(2, ROW, {
            2: '<c r="B2" t="s"><v>-1</v></c>'})),
        strings=f'{DECL}<sst xmlns="{MAIN}"><si><t>one</t></si></sst>')),
    "huge-shared-string.xlsx": lambda: zipped(workbook(
        sheet_xml(row_xml(1, list(HEADER)) + row_xml(2, ROW, {
            2: '<c r="B2" t="s"><v>0</v></c>'})),
        strings=f'{DECL}<sst xmlns="{MAIN}"><si><t>{"A" * 60_000}</t></si></sst>')),
    "unknown-cell-type.xlsx": lambda: with_cell(8, '<c r="H2" t="x"><v>36</v></c>'),
    "bad-cell-reference.xlsx": lambda: with_cell(8, '<c r="1H"><v>36</v></c>'),
    "cell-outside-its-row.xlsx": lambda: with_cell(8, '<c r="H9"><v>36</v></c>'),
    "rows-out-of-order.xlsx": lambda: zipped(workbook(sheet_xml(
        row_xml(2, ROW) + row_xml(1, list(HEADER))))),
    "row-number-not-whole.xlsx": lambda: zipped(workbook(sheet_xml(
        row_xml(1, list(HEADER)) + row_xml(2, ROW).replace('<row r="2">', '<row r="2.5">')))),
    "formula-dde-cmd.xlsx": lambda: with_cell(
        2, "<c r=\"B2\" t=\"str\"><f>cmd|' /C calc'!A0</f><v>x</v></c>"),
    "formula-shared-without-text.xlsx": lambda: with_cell(
        7, '<c r="G2"><f t="shared" si="0"/><v>100</v></c>'),
    "formula-text-as-a-value.xlsx": lambda: with_cell(2, cell("B2", "=cmd|' /C calc'!A0")),
    # Numbers the unit conversion and the schema must bound.
    "unit-1e306-km.xlsx": lambda: zipped(workbook(sheet_xml(
        row_xml(1, [h.replace("length (m)", "length (km)") for h in HEADER])
        + row_xml(2, [1e306 if v == 100 else v for v in ROW])))),
    "negative-sizes.xlsx": lambda: zipped(workbook(sheet_xml(
        row_xml(1, list(HEADER)) + row_xml(2, [-v if v in (100, 4, 120) else v
                                               for v in ROW])))),
    "good.xlsx": lambda: zipped(workbook()),
}

GOOD_CSV = (",".join(HEADER) + "\n" + ",".join(str(v) for v in ROW) + "\n").encode()
NESTED = "".join(f"{n}: &{n} [{', '.join([f'*{chr(ord(n) - 1)}'] * 9)}], " for n in "bcdef")


def ratings_cell(value: str) -> bytes:
    """The good CSV with a ``ratings`` column (a cell of YAML) holding ``value``."""
    header, row = GOOD_CSV.decode().splitlines()
    return f'{header},ratings\n{row},"{value.replace(chr(34), chr(34) * 2)}"\n'.encode()


CSV: dict[str, Callable[[], bytes]] = {
    "good.csv": lambda: GOOD_CSV,
    "csv-not-utf8.csv": lambda: GOOD_CSV.replace(b"My DD", "Mÿ DD".encode("latin-1")),
    "csv-nul-byte.csv": lambda: GOOD_CSV.replace(b"My DD", b"My\0DD"),
    "csv-nan-speed-inf-length.csv": lambda: GOOD_CSV.replace(b",100,36,", b",inf,nan,"),
    "csv-1e306-km.csv": lambda: GOOD_CSV.replace(b"length (m)", b"length (km)").replace(
        b",100,", b",1e306,"),
    "csv-formula-dde.csv": lambda: GOOD_CSV.replace(b"My DD", b"\"=cmd|' /C calc'!A0\""),
    "csv-unclosed-quote.csv": lambda: GOOD_CSV.replace(b"My DD", b'"My DD'),
    "csv-501-columns.csv": lambda: GOOD_CSV.replace(b"\n", b"," * 486 + b"x\n", 1),
    "yaml-cell-billion-laughs.csv": lambda: ratings_cell(
        "{a: &a [x, x, x, x, x, x, x, x, x], " + NESTED + "g: [*f, *f, *f, *f, *f]}"),
    "yaml-cell-python-tag.csv": lambda: ratings_cell(
        "!!python/object/apply:os.system ['touch /tmp/pwned']"),
    "yaml-cell-deep-nesting.csv": lambda: ratings_cell("[" * 5000 + "]" * 5000),
    "yaml-cell-recursive-alias.csv": lambda: ratings_cell("&a [*a]"),
}


def build(folder: Path) -> list[Path]:
    """Write every case into ``folder``; the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in {**XLSX, **CSV}.items():
        path = folder / name
        path.write_bytes(make())
        written.append(path)
    return written


if __name__ == "__main__":
    for path in build(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE):
        print(f"{path.name}: {path.stat().st_size} bytes")
