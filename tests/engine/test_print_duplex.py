"""Packets print double-sided (issue 18, printing items 1 and 2), run by run (issue 29, 4).

Every bundled scenario is built once (the session's shared kits); each packet is read back
once, page by page, through pypdfium2 (labels, texts, top-level outline). A page's
section comes from its page label (``Card-1``, ``ALLIED-Tapes-3``); which sections are
two-sided and which are cut out is written here, independently of the components'
flags, so a component that forgets to declare itself fails.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
import pytest

from generator.kit.packets import BLANK, PacketSpec, sheet_layout
from generator.kit.pipeline import BuildResult, build
from generator.kit.printnote import page_ranges
from generator.kit.seam import KitOptions
from generator.pages.component import Component
from generator.pieces.imposition import Options as SheetOptions

if TYPE_CHECKING:
    from tests.conftest import Kits

SCENARIOS = ["savo-island", "komandorski", "second-sirte", "sunda-strait",
             "guadalcanal-battleships", "river-plate"]
TWO_SIDED = re.compile(r"(?:^|-)(Card|Markers|Counters|Cards|Offset)-(\d+)$")
"""Sections whose pages are fronts and backs: the Action Card and reference card,
marker and counter sheets, event cards, the back-offset check."""
CUT_ONE_SIDED = re.compile(r"(?:^|-)(Tapes|Rulers|Ruler|Strips|Gauge|Turns)-(\d+)$")
"""Sections cut out of single-sided sheets: tapes, rulers, gauge strips, the gauges and
turn guides."""


@dataclass
class Packet:
    """One packet file, read once: its page labels, page texts and top-level outline."""

    path: Path
    labels: list[str]
    texts: list[str]
    titles: list[str]

    @property
    def name(self) -> str:
        return self.path.name


def read(path: Path) -> Packet:
    doc = pdfium.PdfDocument(str(path))
    try:
        return Packet(path, [doc.get_page_label(i) for i in range(len(doc))],
                      [doc[i].get_textpage().get_text_range().strip() for i in range(len(doc))],
                      [item.get_title() for item in doc.get_toc() if item.level == 0])
    finally:
        doc.close()


@pytest.fixture(scope="module")
def built(kits: Kits) -> dict[str, BuildResult]:
    return {s: kits.build(s) for s in SCENARIOS}


@pytest.fixture(scope="module")
def read_back(built: dict[str, BuildResult]) -> dict[Path, Packet]:
    return {r.folder / name: read(r.folder / name)
            for r in built.values() for name in sorted(r.files)}


CHECK = "back-offset-check.pdf"
"""A kit's back-offset check: one sheet, not a table's packet (tested on its own)."""


def packets(read_back: dict[Path, Packet]) -> list[Packet]:
    return [packet for path, packet in read_back.items() if path.name != CHECK]


def test_every_kit_with_two_sided_pieces_has_its_back_offset_check(
        built: dict[str, BuildResult], read_back: dict[Path, Packet]) -> None:
    """The check sheet is a front and its back, labelled so, in every kit built duplex."""
    for result in built.values():
        packet = read_back[result.folder / CHECK]
        assert packet.labels == ["Offset-1", "Offset-2"]
        assert packet.texts[0].startswith("Back-offset check. Print this sheet double-sided")
        assert packet.texts[1].startswith("Back of the offset check (flip on the long edge)")


def section(label: str) -> str:
    """A page label without its number: ``ALLIED-Markers-3`` -> ``ALLIED-Markers-``."""
    return label.rstrip("0123456789")


def test_eighteen_packets_are_checked(read_back: dict[Path, Packet]) -> None:
    assert len(packets(read_back)) == 18


def test_two_sided_items_start_on_odd_pages_and_keep_their_backs(
        read_back: dict[Path, Packet]) -> None:
    sections: set[tuple[str, str]] = set()
    for path in packets(read_back):
        labels = path.labels
        for index, label in enumerate(labels):
            match = TWO_SIDED.search(label)
            if not match:
                continue
            sections.add((path.name, match.group(1)))
            number = int(match.group(2))
            # page n of a two-sided section: odd n on a front (odd page of the file)
            assert index % 2 == (number - 1) % 2, (path.name, index + 1, label)
            partner = index + 1 if index % 2 == 0 else index - 1
            if partner < len(labels):
                # the other side of the sheet: the same section, or a blank back; after
                # the run's last front, the single-sided run, which prints on its own
                other = labels[partner]
                assert other == "Blank" or section(other) == section(label) or (
                    partner > index and CUT_ONE_SIDED.search(other)), \
                    (path.name, index + 1, label, other)
    # every kind of two-sided section was met (the regex still fits the labels)
    assert {kind for _, kind in sections} == {"Card", "Cards", "Counters", "Markers"}


def test_cut_out_pages_print_together_on_one_side(read_back: dict[Path, Packet]) -> None:
    """The pages cut out of one side of a sheet close the packet, a run of their own that
    the print note calls single-sided: none backs onto another, and none needs a blank."""
    kinds: set[str] = set()
    for path in packets(read_back):
        labels = path.labels
        cut = []
        for index, label in enumerate(labels):
            if found := CUT_ONE_SIDED.search(label):
                kinds.add(found.group(1))
                cut.append(index + 1)
        if cut:
            assert cut == list(range(cut[0], len(labels) + 1)), path.name
            note = path.texts[0].replace("\r\n", " ")
            pages = "Pages" if len(cut) > 1 else "Page"
            assert f"{pages} {page_ranges(cut)}: single-sided on card" in note, path.name
    assert kinds == {"Gauge", "Ruler", "Rulers", "Strips", "Tapes", "Turns"}


def test_no_bare_blank_page_and_every_blank_says_so(read_back: dict[Path, Packet]) -> None:
    for path in packets(read_back):
        labels = path.labels
        for index, text in enumerate(path.texts):
            assert text, (path.name, index + 1)  # no page without a word on it
            if labels[index] == "Blank":
                assert text == BLANK, (path.name, index + 1)
            else:
                assert BLANK not in text, (path.name, index + 1)


def test_first_page_says_how_to_print(read_back: dict[Path, Packet]) -> None:
    noted = {"blanks": 0, "single": 0}
    for path in packets(read_back):
        labels = path.labels
        first = path.texts[0].replace("\r\n", " ")
        assert labels[0] == "Note-1"
        assert "How to print this packet" in first
        assert "The pages print in three runs" in first
        assert "No card? Print pages 1–" in first
        assert "100 % scale" in first
        blanks = [i + 1 for i, label in enumerate(labels) if label == "Blank"]
        if blanks:
            said = "Page {} is" if len(blanks) == 1 else "Pages {} are"
            assert f"{said.format(page_ranges(blanks))} intentionally blank" in first
            noted["blanks"] += 1
        single = [i + 1 for i, label in enumerate(labels) if CUT_ONE_SIDED.search(label)]
        if single:
            assert page_ranges(single) in first, path.name
            noted["single"] += 1
    assert min(noted.values()) >= 6, noted  # 18 of 18 packets have both today


def test_savo_allied_tapes_no_longer_back_onto_each_other(
        built: dict[str, BuildResult], read_back: dict[Path, Packet]) -> None:
    packet = read_back[built["savo-island"].folder / "allied.pdf"]
    tapes = [i + 1 for i, label in enumerate(packet.labels) if "Tapes-" in label]
    assert len(tapes) >= 2
    note = packet.texts[0].replace("\r\n", " ")
    single = re.search(r"Pages (\d+)–(\d+): single-sided on card", note)
    assert single and all(int(single[1]) <= page <= int(single[2]) for page in tapes)


def test_table_wide_items_are_printed_once_per_table(built: dict[str, BuildResult],
                                                    read_back: dict[Path, Packet]) -> None:
    """The event deck (Surface Action) and the blank status master (NAVAL ACTION) are in
    the referee's packet only, and each side's print note says so."""
    for scenario, result in built.items():
        shared = "Event cards" if scenario in ("guadalcanal-battleships", "river-plate") \
            else "Blank status master"
        for name in result.files:
            if name == CHECK:
                continue
            packet = read_back[result.folder / name]
            titles = packet.titles
            note = packet.texts[0].replace("\r\n", " ")
            if name == "referee.pdf":
                assert titles.count(shared) == 1, (scenario, name)
                assert "Printed here only, once per table" in note
            else:
                assert shared not in titles, (scenario, name)
                assert "once per table, in referee.pdf" in note, (scenario, name)


# ---- the layout rule itself, on made-up components --------------------------------------


def comp(key: str, pages: int, two_sided: bool = False, cut_out: bool = False) -> Component:
    return Component(key, key, f"{key}-", b"", pages, two_sided=two_sided, cut_out=cut_out)


def keys(spec: PacketSpec, components: dict[str, Component]) -> list[str]:
    return [p.key or "_" for p in sheet_layout(spec, components)]


def test_layout_pads_two_sided_and_cut_out_components() -> None:
    parts = {"read": comp("read", 3), "card": comp("card", 2, two_sided=True),
             "deck": comp("deck", 3, two_sided=True, cut_out=True),
             "tape": comp("tape", 2, cut_out=True), "tail": comp("tail", 1)}
    spec = PacketSpec("p.pdf", "P", ["read", "card", "tape", "deck", "tail"], note_page=True)
    assert keys(spec, parts) == ["print-note", "read", "read", "read", "card", "card",
                                 "tape", "_", "tape", "_", "deck", "deck", "deck", "_",
                                 "tail"]
    # single-sided printing inserts nothing
    off = PacketSpec("p.pdf", "P", spec.components, note_page=True, duplex="off")
    assert keys(off, parts) == ["print-note", "read", "read", "read", "card", "card", "tape",
                                "tape", "deck", "deck", "deck", "tail"]
    # no blank page closes a packet
    end = PacketSpec("p.pdf", "P", ["read", "tape"])
    assert keys(end, parts) == ["read", "read", "read", "_", "tape", "_", "tape"]


def test_recto_is_the_old_name_of_two_sided() -> None:
    old = Component("m", "M", "M-", b"", 2, [], True)
    assert old.two_sided and old.recto and not old.cut_out
    assert not Component("m", "M", "M-", b"", 2).two_sided


def test_duplex_off_prints_single_sided_with_nothing_inserted(
        tmp_path_factory: pytest.TempPathFactory) -> None:
    options = KitOptions(sheets=SheetOptions(duplex="off"))
    result = build("river-plate", out=tmp_path_factory.mktemp("off"), options=options)
    for name in result.files:
        packet = read(result.folder / name)
        labels = packet.labels
        assert "Blank" not in labels
        first = packet.texts[0].replace("\r\n", " ")
        assert f"Print all {len(labels)} pages single-sided, at 100 % scale" in first
