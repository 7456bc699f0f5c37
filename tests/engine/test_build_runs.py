"""A build's packets print run by run, with few blank pages (issue 29, item 4).

Every bundled scenario's kit is composed once per paper (the session's shared kits) and
each packet is read back: its page labels and page texts. Which pages print on which
stock is decided here from the page labels alone (``stock``), independently of the
components' flags, and the print note on the first page must name exactly those runs.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from generator.data.library import load_library
from generator.kit.packets import EMPTY, PacketSpec, sheet_layout
from generator.pages.component import Component
from tests import builds
from tests.blanks import blank_pages, is_blank

PAPERS = ("a4", "letter")
SCENARIOS = sorted(load_library().scenarios)
DOUBLE_CARD = {"Markers", "Counters", "Offset"}
"""Sections of fronts with their backs, whatever side they belong to; also the Action
and reference cards (``Card-``), the event deck (``Cards-``) and a side's advantage cards
(``USA-Cards-``), but not the game control's list of advantage cards (``GC-Cards-``)."""
SINGLE_CARD = {"Tapes", "Rulers", "Ruler", "Strips", "Gauge", "Turns", "TF", "Track",
               "Overlay", "Aids"}
"""Sections cut out of one side of a sheet; also a side's unit cards (``ISRAEL-Card-``)."""
ORDER = ("double-sided on paper", "double-sided on card", "single-sided on card")
"""The runs in the order they follow one another."""
RUN = re.compile(r"Pages? (\d+)(?:–(\d+))?: ((?:double|single)-sided on (?:paper|card)) \(")
ONE_JOB = re.compile(r"No card\? Print pages? (\d+)(?:–(\d+))? double-sided in one job"
                     r"(?:, then pages? (\d+)(?:–(\d+))? single-sided)?, all on paper\.")


def stock(label: str) -> str:
    """How a page prints, from its page label (``ALLIED-Markers-3``, ``Card-1``...)."""
    parts = label.rstrip("0123456789").rstrip("-").split("-")
    kind, sided = parts[-1], len(parts) > 1
    if kind in DOUBLE_CARD or (kind == "Card" and not sided) or (
            kind == "Cards" and parts[0] != "GC"):
        return "double-sided on card"
    if kind in SINGLE_CARD or (kind == "Card" and sided):
        return "single-sided on card"
    return "double-sided on paper"


@functools.cache
def packets(scenario: str) -> list[tuple[str, str, list[str], list[str]]]:
    """(paper, file, page labels, page texts) of every packet of a scenario's kits.

    Each kit is composed once for the session (``tests.builds``), each file read once.
    """
    out = []
    for paper in PAPERS:
        for name, pdf in builds.kit(scenario, paper=paper).files.items():
            doc = pdfium.PdfDocument(pdf)
            try:
                labels = [doc.get_page_label(i) for i in range(len(doc))]
                texts = [doc[i].get_textpage().get_text_range().replace("\r\n", " ")
                         for i in range(len(doc))]
            finally:
                doc.close()
            out.append((paper, name, labels, texts))
    return out


def expected_runs(labels: list[str]) -> list[tuple[int, int, str]]:
    """(first, last, how) of each run: pages of one stock in a row; a blank page is the
    back of the page before it, so it joins that page's run."""
    runs: list[list[int | str]] = []
    for page, label in enumerate(labels, start=1):
        how = runs[-1][2] if label == "Blank" and runs else stock(label)
        if runs and runs[-1][2] == how:
            runs[-1][1] = page
        else:
            runs.append([page, page, how])
    return [(int(a), int(b), str(c)) for a, b, c in runs]


def noted_runs(note: str) -> list[tuple[int, int, str]]:
    """(first, last, how) of each run the print note names."""
    return [(int(m[1]), int(m[2] or m[1]), m[3]) for m in RUN.finditer(note)]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_blank_pages_are_at_most_a_tenth_of_every_packet(scenario: str) -> None:
    for paper, name, labels, texts in packets(scenario):
        blanks = blank_pages(texts)
        assert len(blanks) * 10 <= len(texts), (paper, name, blanks, len(texts))
        # Every blank page is one the packet inserted, labelled so.
        assert blanks == [n for n, label in enumerate(labels, 1) if label == "Blank"]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_print_note_names_the_pages_of_each_run(scenario: str) -> None:
    noted = 0
    for paper, name, labels, texts in packets(scenario):
        if labels[0] != "Note-1":
            continue  # a file of one component: nothing to say how to print
        noted += 1
        runs = expected_runs(labels)
        assert noted_runs(texts[0]) == runs, (paper, name)
        # Paper first, then card with backs, then card cut out of one side.
        ranks = [ORDER.index(how) for *_, how in runs]
        assert ranks == sorted(set(ranks)), (paper, name, runs)
        for first, last, how in runs:
            blanks = [n for n in range(first, last + 1) if is_blank(texts[n - 1])]
            if how.startswith("single"):
                assert not blanks, (paper, name, first, last)
            else:
                # A double-sided run starts on a front, on an odd page of the file, and a
                # blank page in it is a back, never a sheet of its own.
                assert first % 2 == 1, (paper, name, first)
                assert all((n - first) % 2 == 1 for n in blanks), (paper, name, blanks)
        double = [run for run in runs if run[2].startswith("double")]
        single = [run for run in runs if run[2].startswith("single")]
        found = ONE_JOB.search(texts[0])
        if len(double) > 1:
            assert found, (paper, name)
            assert (int(found[1]), int(found[2] or found[1])) == (
                double[0][0], double[-1][1]), (paper, name)
            if single:
                assert (int(found[3]), int(found[4] or found[3])) == (
                    single[0][0], single[-1][1]), (paper, name)
        else:
            assert found is None, (paper, name)
    assert noted >= 2


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_fronts_and_backs_keep_their_sides(scenario: str) -> None:
    """Page n of a section of fronts and backs: a front (odd n) on a front of its run."""
    met = 0
    for paper, name, labels, _ in packets(scenario):
        for first, last, how in expected_runs(labels):
            if how != ORDER[1]:
                continue
            for page in range(first, last + 1):
                label = labels[page - 1]
                if label != "Blank":
                    met += 1
                    number = int(re.sub(r"^.*\D", "", label))
                    assert (page - first) % 2 == (number - 1) % 2, (paper, name, label)
    assert met >= 4


# ---- the layout rule itself, on made-up components --------------------------------------


def comp(key: str, pages: int, two_sided: bool = False, cut_out: bool = False,
         empty: tuple[int, ...] = ()) -> Component:
    drawn = [EMPTY if page in empty else f"{key}.{page}" for page in range(pages)]
    return Component(key, key, f"{key}-", b"", pages, two_sided=two_sided, cut_out=cut_out,
                     drawn=drawn)


def keys(spec: PacketSpec, parts: dict[str, Component]) -> list[str]:
    return [p.key or "_" for p in sheet_layout(spec, parts)]


def test_at_home_the_double_sided_runs_print_as_one_job() -> None:
    parts = {"read": comp("read", 3), "card": comp("card", 2, two_sided=True),
             "deck": comp("deck", 3, two_sided=True, cut_out=True),
             "tape": comp("tape", 2, cut_out=True), "tail": comp("tail", 1)}
    spec = PacketSpec("p.pdf", "P", ["read", "card", "tape", "deck", "tail"], note_page=True,
                      runs=True, one_job=True)
    # The note and the four pages to read end on a front: its blank back keeps the card's
    # front on an odd page. The odd deck closes the run; the tapes need no backs.
    assert keys(spec, parts) == ["print-note", "read", "read", "read", "tail", "_", "card",
                                 "card", "deck", "deck", "deck", "tape", "tape"]
    # Printed run by run at an event, the card run starts a sheet of its own anyway.
    apart = PacketSpec("p.pdf", "P", spec.components, note_page=True, runs=True)
    assert keys(apart, parts) == ["print-note", "read", "read", "read", "tail", "card",
                                  "card", "deck", "deck", "deck", "tape", "tape"]
    # With --duplex off nothing is inserted.
    off = PacketSpec("p.pdf", "P", spec.components, note_page=True, duplex="off",
                     runs=True, one_job=True)
    assert "_" not in keys(off, parts)


def test_a_sheet_run_ending_in_an_empty_back_goes_last() -> None:
    """Counters whose last back is empty end on a front: placed last, no blank page."""
    parts = {"counters": comp("counters", 4, two_sided=True, cut_out=True, empty=(3,)),
             "card": comp("card", 2, two_sided=True)}
    spec = PacketSpec("p.pdf", "P", ["counters", "card"], runs=True, one_job=True)
    assert keys(spec, parts) == ["card", "card", "counters", "counters", "counters"]


def test_the_note_names_each_run_and_how_to_print_on_paper_alone() -> None:
    from generator.kit.printnote import note_lines

    parts = {"read": comp("read", 3), "card": comp("card", 2, two_sided=True),
             "deck": comp("deck", 3, two_sided=True, cut_out=True),
             "tape": comp("tape", 2, cut_out=True), "tail": comp("tail", 1)}
    spec = PacketSpec("p.pdf", "P", ["read", "card", "tape", "deck", "tail"], note_page=True,
                      runs=True, one_job=True)
    lines, rows = note_lines(spec, parts, sheet_layout(spec, parts))
    assert lines[1:6] == [
        "Pages 1–6: double-sided on paper (to read).",
        "Pages 7–11: double-sided on card (fronts with their backs).",
        "Pages 12–13: single-sided on card (cut out, so nothing prints on the back).",
        "No card? Print pages 1–11 double-sided in one job, then pages 12–13 single-sided, "
        "all on paper.",
        "Page 6 is intentionally blank: the back of a sheet with nothing to print on it."]
    assert "three runs" in lines[0] and "flipped on the long edge" in lines[0]
    # The contents in page order, the tail among the pages to read.
    assert [row[:2] for row in rows] == [
        ("1", "How to print this packet"), ("2–4", "read"), ("5", "tail"),
        ("7–8", "card"), ("9–11", "deck"), ("12–13", "tape")]
    off = PacketSpec("p.pdf", "P", spec.components, note_page=True, duplex="off",
                     runs=True, one_job=True)
    lines, _ = note_lines(off, parts, sheet_layout(off, parts))
    assert lines[0].startswith("Print all 12 pages single-sided, at 100 % scale")
    assert lines[1:4] == ["Pages 1–5: single-sided on paper (to read).",
                          "Pages 6–12: single-sided on card (cards, and pieces to cut out).",
                          "Page numbers here are the ones printed at the foot of each "
                          "page, counted from the first page of the file; your PDF "
                          "viewer may show section labels (Card-1) beside them."]


PAGE_NUMBER = re.compile(r"(?<![\w-])page (\d+)\b")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_page_numbers_run_through_each_packet(scenario: str) -> None:
    """Every printed page carries its place in the packet, the number its note gives.

    The pages are drawn once per build and shared by the packets, each of which stamps
    its own numbers: the same Action Card page is "page 15" in one packet and
    "page 12" in another, and a section's own count ("Card-1") is never printed.
    """
    for paper, name, labels, texts in packets(scenario):
        for n, (label, text) in enumerate(zip(labels, texts, strict=True), 1):
            if label == "Blank":
                assert PAGE_NUMBER.findall(text) == [], (paper, name, n)
                continue
            found = PAGE_NUMBER.findall(text)
            if label.startswith("Note-"):  # the note names pages itself ("then page 21")
                found = found[-1:]
            assert found == [str(n)], (paper, name, n, label, text[-80:])


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_no_line_is_thinner_than_a_print_shop_prints(scenario: str, tmp_path: Path) -> None:
    """Every stroke of every packet is at least 0.25 pt wide as printed (a print shop's
    preflight fails a hairline; a transparency overlay's thin hexes included)."""
    from generator.kit.preflight import preflight

    for name, pdf in builds.kit(scenario).files.items():
        path = tmp_path / name
        path.write_bytes(pdf)
        thin = [str(f) for f in preflight(path).findings if "hairline" in f.what]
        assert thin == [], thin
