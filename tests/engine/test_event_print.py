"""An event's covers and print-shop summary, read back from the example event (issue 29).

Items 3 and 4: every page a cover names is a page of the file whose text is that
component's; every page with cut pieces falls in a card run; the checklist names each
cut-out sheet once, with the pieces as printed on them; blank pages are few and never
billed as card. The example event (``examples/convention.yaml``: Savo Island on two
tables, the River Plate on one, A4 and Letter) is built once for the module.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.kit.event import build_event
from generator.kit.packets import PacketSpec, sheet_layout
from generator.pages.component import Component
from tests.blanks import BLANK, blank_pages
from tests.paths import ROOT

CARD_DOUBLE = re.compile(r"^(Markers|Counters|Event cards|Action Card|Surface Action: "
                         r"reference card|Reference card)", re.IGNORECASE)
"""Top-level bookmarks of what prints double-sided on card (fronts and their backs)."""
CARD_SINGLE = re.compile(r"^(Range tapes|Rulers?\b|Gauges|Gauge strips|Turn)", re.IGNORECASE)
"""Top-level bookmarks of what is cut out of single-sided card."""
PIECES = ("Cut on the grey lines", "Backs of sheet", "Check this before you cut")
"""Text only a page with cut pieces carries (a sheet's footer, a cut-out aid's check)."""


@dataclass
class Packet:
    """One table packet read back: page texts, top-level outline, cover runs and sheets."""

    path: Path
    texts: list[str]
    outline: list[tuple[str, int]]
    """(title, 0-based page) of every top-level bookmark, in page order."""
    runs: list[tuple[int, int, str]]
    """(first, last, how) of each row of the cover's "How to print" table."""
    checklist: list[tuple[int, str, str]]
    """(page, sheet, pieces) of each line of the cover's pieces list."""

    def owner(self, page: int) -> str:
        """The top-level section a 1-based page falls in ("" before the first)."""
        found = ""
        for title, at in self.outline:
            if at + 1 <= page:
                found = title
        return found


def _read(path: Path) -> Packet:
    doc = pdfium.PdfDocument(str(path))
    try:
        texts = [doc[i].get_textpage().get_text_range().replace("\r\n", "\n")
                 for i in range(len(doc))]
    finally:
        doc.close()
    reader = PdfReader(path)
    outline = sorted(((m.title, reader.get_destination_page_number(m))
                      for m in reader.outline if not isinstance(m, list)),
                     key=lambda item: item[1])
    lines = texts[0].split("\n")
    runs = []
    for line in lines[lines.index("Pages Print") + 1:]:
        found = re.match(r"^(\d+)(?:–(\d+))? ((?:double|single)-sided on (?:paper|card))$",
                         line)
        if found:
            first = int(found.group(1))
            runs.append((first, int(found.group(2) or first), found.group(3)))
    checklist: list[tuple[int, str, str]] = []
    for text in texts[1:]:
        if "Page Sheet Pieces" not in text:
            break
        lines = text.split("\n")
        # The table's rows, up to the page's footer (its last line); a wrapped cell's
        # further lines follow its row.
        for line in lines[lines.index("Page Sheet Pieces") + 1:-1]:
            found = re.match(r"^(\d+) (.+?, sheet \d+ of \d+) (.*)$", line)
            if found:
                checklist.append((int(found.group(1)), found.group(2), found.group(3)))
            elif checklist:
                page, sheet, pieces = checklist[-1]
                checklist[-1] = (page, sheet, f"{pieces} {line}")
    return Packet(path, texts, outline, runs, checklist)


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example event's folder, built from the example file as a club would."""
    out = tmp_path_factory.mktemp("example-event")
    return build_event(ROOT / "examples" / "convention.yaml", out=out).folder


@pytest.fixture(scope="module")
def packets(event: Path) -> dict[str, Packet]:
    """Every table packet of both papers, read back once (``a4/table-01-.../allied.pdf``)."""
    found = sorted(event.glob("*/table-*/*.pdf"))
    assert len(found) == 18  # 3 tables x 3 packets x 2 papers
    return {str(path.relative_to(event)): _read(path) for path in found}


def test_every_cover_run_names_pages_of_its_own_stock(packets: dict[str, Packet]) -> None:
    for name, packet in packets.items():
        pages = len(packet.texts)
        covered = [n for first, last, _ in packet.runs for n in range(first, last + 1)]
        # The runs follow one another and cover the whole file, each page once.
        assert covered == list(range(1, pages + 1)), (name, packet.runs)
        for first, last, how in packet.runs:
            for page in range(first, last + 1):
                text, section = packet.texts[page - 1], packet.owner(page)
                if text.strip() == BLANK:
                    # A blank page is the back of its run's last sheet, never a front.
                    assert (page - first) % 2 == 1, (name, page)
                    assert how.startswith("double"), (name, page)
                elif how == "double-sided on card":
                    assert CARD_DOUBLE.match(section), (name, page, section)
                elif how == "single-sided on card":
                    assert CARD_SINGLE.match(section), (name, page, section)
                    assert "Check this before you cut" in text, (name, page)
                else:
                    assert not CARD_DOUBLE.match(section), (name, page, section)
                    assert not CARD_SINGLE.match(section), (name, page, section)


def test_every_page_with_cut_pieces_is_in_a_card_run(packets: dict[str, Packet]) -> None:
    met = set()
    for name, packet in packets.items():
        card = {n for first, last, how in packet.runs if how.endswith("card")
                for n in range(first, last + 1)}
        for page, text in enumerate(packet.texts, start=1):
            section = packet.owner(page)
            if section.startswith("Range strings"):
                continue  # read, and measured against its own scale bar, not cut
            if any(mark in text for mark in PIECES):
                met.add(section.split(":")[0].split(" · ")[0])
                assert page in card, (name, page, section)
    assert {"Markers", "Range tapes", "Rulers", "Gauges", "Gauge strips",
            "Event cards"} <= met, met


def test_contents_and_checklist_point_at_their_pages(packets: dict[str, Packet]) -> None:
    for name, packet in packets.items():
        lines = packet.texts[0].split("\n")
        contents = lines[lines.index("Section Page") + 1:lines.index("How to print")]
        assert contents == [f"{title} {page + 1}" for title, page in packet.outline], name
        for page, sheet, _ in packet.checklist:
            title = sheet.rsplit(", sheet ", 1)[0]
            # The sheet's own section, and a front: the page with its pieces' cut lines.
            assert packet.owner(page) == title, (name, page, sheet)
            assert "Backs of sheet" not in packet.texts[page - 1], (name, page)


def test_the_checklist_has_a_line_for_every_cut_out_sheet(packets: dict[str, Packet]) -> None:
    packet = packets["a4/table-01-savo-island/allied.pdf"]
    fronts = [page for page, text in enumerate(packet.texts, start=1)
              if any(mark in text for mark in PIECES) and "Backs of sheet" not in text
              and not packet.owner(page).startswith("Range strings")]
    assert [page for page, _, _ in packet.checklist] == fronts
    sheets = {sheet: pieces for _, sheet, pieces in packet.checklist}
    assert set(sheets) == {
        "Markers: Allied Screening Force, sheet 1 of 1",
        *(f"Range tapes: Allied Screening Force, sheet {n} of 3" for n in (1, 2, 3)),
        "Rulers · 333 yd per cm (tabletop), sheet 1 of 1",
        "Gauges, sheet 1 of 2", "Gauges, sheet 2 of 2",
        "Gauge strips · 333 yd per cm (tabletop), sheet 1 of 3",
        "Gauge strips · 333 yd per cm (tabletop), sheet 2 of 3",
        "Gauge strips · 333 yd per cm (tabletop), sheet 3 of 3"}
    assert sheets["Gauges, sheet 1 of 2"] == "Firing-arc protractor"
    assert sheets["Gauges, sheet 2 of 2"] == "Turn gauge"
    assert sheets["Range tapes: Allied Screening Force, sheet 3 of 3"] == (
        "21in torpedoes · 333 yd per cm (tabletop)")
    # The pool markers by the names printed on them ("FIRE", not "Burning").
    markers = "\n".join(packet.texts[page - 1] for page, sheet, _ in packet.checklist
                        if sheet.startswith("Markers"))
    listed = " ".join(pieces for _, sheet, pieces in packet.checklist
                      if sheet.startswith("Markers"))
    for count, piece, printed in ((12, "Fire", "FIRE"), (14, "Smoke", "SMOKE")):
        assert f"{count} × {piece}" in listed
        assert printed in markers
    assert "Burning" not in listed
    # Every piece on the tapes, rulers, gauges and strips is named as it is printed.
    for page, sheet, pieces in packet.checklist:
        if sheet.startswith("Markers"):
            continue
        text = re.sub(r"\s+", "", packet.texts[page - 1])
        for piece in re.split(r", (?=[A-Z0-9])", re.sub(r"^\d+ × ", "", pieces)):
            assert re.sub(r"\s+", "", piece.split(" · ")[0]) in text, (page, piece)


def test_blank_pages_are_at_most_a_tenth_of_every_packet(packets: dict[str, Packet]) -> None:
    for name, packet in packets.items():
        blanks = blank_pages(packet.texts)
        assert len(blanks) * 10 <= len(packet.texts), (name, blanks, len(packet.texts))


def test_no_single_sided_card_run_holds_a_blank_page(packets: dict[str, Packet]) -> None:
    single = 0
    for name, packet in packets.items():
        for first, last, how in packet.runs:
            if how.startswith("single"):
                single += last - first + 1
                assert all(packet.texts[n - 1].strip() != BLANK
                           for n in range(first, last + 1)), (name, first, last)
    assert single >= 40


def test_the_print_shop_bills_no_blank_page_as_card(event: Path,
                                                    packets: dict[str, Packet]) -> None:
    """Card sheets: a sheet per single-sided page, one per two double-sided pages."""
    for paper in ("a4", "letter"):
        expected = 0
        for name, packet in packets.items():
            if name.startswith(paper):
                for first, last, how in packet.runs:
                    n = last - first + 1
                    if how == "single-sided on card":
                        expected += n
                    elif how == "double-sided on card":
                        expected += (n + 1) // 2
        summary = pdfium.PdfDocument(str(event / paper / "print-shop.pdf"))
        text = summary[0].get_textpage().get_text_range()
        total = re.search(r"^total (\d+) (\d+) (\d+)", text.replace("\r\n", "\n"), re.M)
        assert total is not None
        card_of_tables = int(total.group(3)) - _extras_card(event / paper)
        assert card_of_tables == expected, paper


def _extras_card(folder: Path) -> int:
    """Card sheets of the extras: the Action Card and the reference card, two-sided."""
    sheets = 0
    for path in folder.glob("extras/*/*.pdf"):
        if path.stem in ("action-card", "reference-card"):
            sheets += (len(PdfReader(path).pages) + 1) // 2
    return sheets


# ---- the run layout on made-up components ----------------------------------------------


def comp(key: str, pages: int, two_sided: bool = False, cut_out: bool = False) -> Component:
    return Component(key, key, f"{key}-", b"", pages, two_sided=two_sided, cut_out=cut_out)


def test_runs_gather_by_stock_and_need_no_blank_backs() -> None:
    parts = {"read": comp("read", 3), "deck": comp("deck", 3, two_sided=True, cut_out=True),
             "tape": comp("tape", 2, cut_out=True), "card": comp("card", 2, two_sided=True),
             "tail": comp("tail", 2), "chit": comp("chit", 1, two_sided=True, cut_out=True)}
    spec = PacketSpec("p.pdf", "P", ["read", "deck", "tape", "card", "tail", "chit"],
                      runs=True)
    keys = [p.key or "_" for p in sheet_layout(spec, parts)]
    # Reading pages first, in the recipe's order; then the run of fronts and backs, the
    # even card first and the odd sheets last, a blank back only where a front would
    # otherwise land on a back; then the single-sided tapes. No run ends in a blank page:
    # each is printed on its own.
    assert keys == ["read", "read", "read", "tail", "tail", "card", "card",
                    "deck", "deck", "deck", "_", "chit", "tape", "tape"]


def test_letter_event_decks_hold_eight_cards_a_sheet(packets: dict[str, Packet]) -> None:
    """Each front's cards, by the ids written invisibly at their trim corners."""
    for paper, most in (("letter", 8), ("a4", 9)):
        packet = packets[f"{paper}/table-03-river-plate/referee.pdf"]
        counts = [len(re.findall(r"\bevent\.[a-z0-9-]+\b(?!\.back)", text))
                  for page, text in enumerate(packet.texts, start=1)
                  if packet.owner(page) == "Event cards" and "Backs of sheet" not in text]
        assert len(counts) >= 4, counts
        assert all(n == most for n in counts[:-1]) and 1 <= counts[-1] <= most, (paper, counts)


# ---- no page of bare footer -------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["guadalcanal-battleships", "sheffield-1982"])
def test_no_page_carries_only_its_footer(scenario: str) -> None:
    """A back of counters whose pieces have no backs is a blank back that says so.

    A page carries only its footer when nothing is drawn above the footer's band (the
    bottom 14 mm). Surface Action's counter sheets and modern naval's marker sheets end in
    sheets of one-sided pieces; their backs were such pages.
    """
    import pypdfium2.raw as raw

    from tests.builds import kit

    made = kit(scenario)
    blanks = 0
    for name, data in made.files.items():
        doc = pdfium.PdfDocument(data)
        try:
            for index in range(len(doc)):
                page = doc[index]
                text = page.get_textpage().get_text_range().strip()
                if text == BLANK:
                    blanks += 1
                    continue
                above = [obj for obj in page.get_objects(max_depth=5)
                         if obj.type != raw.FPDF_PAGEOBJ_FORM
                         and obj.get_bounds()[3] > 14 * 72 / 25.4]
                assert above, (name, index + 1, doc.get_page_label(index), text[:60])
        finally:
            doc.close()
    assert blanks  # the one-pass packets keep their blank backs, each saying so


def test_a_cover_is_laid_out_behind_its_own_length() -> None:
    """The page numbers a cover prints count its own pages, however many it takes."""
    from generator.core.errors import RenderError
    from generator.kit.eventprint import cover_pages, join_pdfs
    from generator.kit.printnote import blank_page

    page = blank_page(595.28, 841.89)
    asked: list[int] = []

    def grows(lead: int) -> tuple[bytes, list, list]:  # type: ignore[type-arg]
        # Three pages behind the first guess (2), four behind any longer one.
        asked.append(lead)
        return join_pdfs([page] * (4 if lead >= 3 else 3)), [], []

    made = cover_pages(grows)
    assert asked == [2, 3, 4] and len(PdfReader(io.BytesIO(made[0])).pages) == 4

    def never(lead: int) -> tuple[bytes, list, list]:  # type: ignore[type-arg]
        return join_pdfs([page] * (lead + 1)), [], []

    with pytest.raises(RenderError, match="does not settle"):
        cover_pages(never)
