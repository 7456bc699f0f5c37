"""A build draws on one ReportLab document and writes each packet from its pages.

Issue 21 item 2: a packet is as small as its pages rendered in one run, with one font
descriptor per face subset (no primers, no duplicates), and no page is drawn twice.
"""

from __future__ import annotations

import dataclasses
import io
import re
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from generator.core import fonts, parallel
from generator.core.errors import UsageError
from generator.data.library import load_library
from generator.kit import pipeline
from generator.kit.packets import ordered, sheet_layout
from generator.kit.printnote import NOTE_LABEL, NOTE_TITLE
from generator.kit.seam import Request
from generator.pages import kitdoc
from generator.pages.subsets import Subsets

SCENARIO = "savo-island"


@pytest.fixture(scope="module")
def drawn(request: pytest.FixtureRequest) -> tuple[pipeline.Kit, int]:
    """The default kit, composed once, with the number of pages put on its canvas."""
    shown = Counter[str]()
    original = kitdoc.KitCanvas.showPage

    def counting(self: kitdoc.KitCanvas) -> None:
        shown["pages"] += 1
        original(self)

    patch = pytest.MonkeyPatch()
    patch.setattr(kitdoc.KitCanvas, "showPage", counting)
    patch.setenv("QUARTERDECK_JOBS", "1")  # every page drawn here, where it is counted
    try:
        kit = pipeline.compose(Request("kit", scenario=SCENARIO))
    finally:
        patch.undo()
    return kit, shown["pages"]


def _descriptors(pdf: bytes) -> list[str]:
    """The FontName of every font descriptor in the file (ReportLab writes them plain)."""
    return [name.decode() for name in re.findall(rb"/FontName /([^\s/>]+)", pdf)]


def test_every_packet_embeds_each_font_subset_once(drawn: tuple[pipeline.Kit, int]) -> None:
    kit, _ = drawn
    for name, pdf in kit.files.items():
        names = _descriptors(pdf)
        assert names, name
        assert len(names) == len(set(names)), (name, Counter(names).most_common(3))
        faces = {n.split("+", 1)[1] for n in names}
        # The kit's four faces; each subset is named by what it holds.
        assert faces <= {"PTSans-Regular", "PTSans-Bold", "PTSans-Narrow",
                         "PTSans-NarrowBold"}, (name, faces)
        assert len(names) <= 2 * len(faces), (name, names)


def _no_missing_glyphs(name: str, pdf: bytes) -> None:
    """pdfium reads a code whose glyph was left out of the subset as U+FFFE."""
    doc = pdfium.PdfDocument(pdf)
    for i in range(len(doc)):
        text = doc[i].get_textpage().get_text_range()
        assert "\ufffe" not in text and "\ufffd" not in text, (name, i, text[:200])


def test_every_character_printed_has_its_glyph(drawn: tuple[pipeline.Kit, int]) -> None:
    # A form (a grid header, a legend) is drawn once and placed on pages of several
    # packets: each packet must carry the glyphs of the forms it places.
    kit, _ = drawn
    for name, pdf in kit.files.items():
        _no_missing_glyphs(name, pdf)
    alone = pipeline.compose(Request("kit", scenario=SCENARIO), only={"japanese.pdf"})
    _no_missing_glyphs("japanese.pdf alone", alone.files["japanese.pdf"])


# The library as loaded (its scenario ids), not checked: cheap at collection in each worker.
@pytest.mark.parametrize("scenario", sorted(load_library().scenarios))
def test_no_bundled_packet_lacks_a_glyph(scenario: str) -> None:
    # Every kit, and the marker sheets alone (whose invisible ids are written as raw
    # text operators): a packet keeps the glyphs of everything its pages print.
    from tests import builds

    for command in ("kit", "markers"):
        try:
            made = builds.kit(scenario, command=command)
        except UsageError:  # a ruleset that prints no separate marker sheets
            assert command == "markers", scenario  # every scenario has a kit to check
            continue
        for name, pdf in made.files.items():
            _no_missing_glyphs(f"{scenario} {command} {name}", pdf)


def test_no_page_is_drawn_twice(drawn: tuple[pipeline.Kit, int]) -> None:
    kit, pages = drawn
    distinct = sum(c.pages for c in kit.components.values())
    inserted = sum(1 for spec in kit.packets for p in sheet_layout(spec, kit.components)
                   if p.key is None or p.key == "print-note")
    assert pages == distinct + inserted
    # A component in several packets is the same drawing in each (its second content
    # stream, between the packet's q and Q); only the stamped page number differs.
    card = kit.components["card"]
    streams, stamps = [], []
    for name in ("allied.pdf", "referee.pdf"):
        reader = PdfReader(io.BytesIO(kit.files[name]))
        labels = reader.page_labels
        first = labels.index("Card-1")
        contents = reader.pages[first]["/Contents"]
        parts = [ref.get_object().get_data() for ref in contents]
        assert parts[0].strip() == b"q" and parts[2].strip() == b"Q"
        streams.append(parts[1])
        stamps.append((first, reader.pages[first].extract_text()))
    assert card.pages == 2 and streams[0] == streams[1]
    assert stamps[0][0] != stamps[1][0]
    for first, text in stamps:
        assert text.rstrip().endswith(f"page {first + 1} · front"), text[-40:]


def test_a_packet_is_no_bigger_than_its_pages_rendered_alone(
        drawn: tuple[pipeline.Kit, int]) -> None:
    kit, _ = drawn
    alone = pipeline.compose(Request("kit", scenario=SCENARIO), only={"allied.pdf"})
    assert list(alone.files) == ["allied.pdf"]
    ours, floor = len(kit.files["allied.pdf"]), len(alone.files["allied.pdf"])
    assert ours <= 1.1 * floor, (ours, floor)
    # The same pages, in the same order, say the same thing.
    a = pdfium.PdfDocument(kit.files["allied.pdf"])
    b = pdfium.PdfDocument(alone.files["allied.pdf"])
    assert len(a) == len(b)
    for i in range(len(a)):
        assert a[i].get_textpage().get_text_range() == b[i].get_textpage().get_text_range()


def test_packets_keep_outline_labels_and_print_settings(
        drawn: tuple[pipeline.Kit, int]) -> None:
    kit, _ = drawn
    reader = PdfReader(io.BytesIO(kit.files["japanese.pdf"]))
    assert reader.metadata is not None and reader.metadata.title == (
        "Battle of Savo Island: Japanese Striking Force")
    root = reader.trailer["/Root"]
    assert root["/PageMode"] == "/UseOutlines"
    assert root["/ViewerPreferences"]["/PrintScaling"] == "/None"
    labels = reader.page_labels
    assert labels[0] == f"{NOTE_LABEL}1"
    assert "Card-1" in labels and "Card-2" in labels
    top = [item.title for item in reader.outline if not isinstance(item, list)]
    spec = next(s for s in kit.packets if s.filename == "japanese.pdf")
    # In page order: the packet prints run by run, not in the recipe's order.
    assert top == [NOTE_TITLE, *(kit.components[key].title
                                 for key in ordered(spec, kit.components))]
    # Every outline entry opens on a page of this file.
    for item in reader.outline:
        if not isinstance(item, list):
            assert 0 <= reader.get_destination_page_number(item) < len(reader.pages)


def test_rebuilds_are_byte_identical(drawn: tuple[pipeline.Kit, int]) -> None:
    from tests import builds

    kit, _ = drawn
    again = builds.kit(SCENARIO)  # composed on its own (the glyph check reads it too)
    assert again is not kit and again.files == kit.files


def test_a_build_is_dealt_to_workers_only_when_it_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    from generator.kit.recipe import plan
    from generator.kit.seam import KitOptions

    library = pipeline.validated_library([])
    request = Request("kit", scenario=SCENARIO)
    ruleset = pipeline.owner(library, request)
    ctx = ruleset.prepare(library, request, "a4", KitOptions())
    work = plan(ruleset.recipe("kit"), ctx.sides, ctx.flags, ctx.values)
    monkeypatch.delenv("QUARTERDECK_JOBS", raising=False)
    # The referee's packet holds nearly every component: a second worker would draw
    # most of them again and finish no sooner.
    assert [len(p.jobs) for p in pipeline._deal(work, 2)] == [len(work.jobs)]
    # The two side packets share only the table-wide items: each worker draws its side.
    sides = [p for p in work.packets if p.file != "referee.pdf"]
    keys = {k for p in sides for k in p.keys}
    two = dataclasses.replace(work, packets=sides, jobs=[j for j in work.jobs if j.key in keys])
    dealt = pipeline._deal(two, 2)
    assert sorted(p.file for part in dealt for p in part.packets) == ["allied.pdf",
                                                                      "japanese.pdf"]
    assert max(len(part.jobs) for part in dealt) <= pipeline.BUSIEST * len(two.jobs)
    # A user who sets the number of workers chooses how many, not how: the default kit
    # still stays whole, and its components are drawn side by side.
    monkeypatch.setenv("QUARTERDECK_JOBS", "2")
    assert [len(p.jobs) for p in pipeline._deal(work, 2)] == [len(work.jobs)]


def test_components_drawn_side_by_side_make_the_same_packets(
        drawn: tuple[pipeline.Kit, int], monkeypatch: pytest.MonkeyPatch) -> None:
    kit, _ = drawn
    monkeypatch.delenv("QUARTERDECK_JOBS", raising=False)
    monkeypatch.setattr(pipeline, "workers", lambda: 2)
    monkeypatch.setattr(parallel, "workers", lambda: 2)
    monkeypatch.setattr(parallel, "can_fork", lambda: True)
    steps: list[str] = []
    aside = pipeline.compose(Request("kit", scenario=SCENARIO),
                             progress=lambda step, total: steps.append(step))
    # Every component page was drawn in a forked worker and adopted here...
    drawn_pages = [name for c in aside.components.values() for name in c.drawn]
    assert drawn_pages and all(name.startswith("W") for name in drawn_pages)
    assert len(set(drawn_pages)) == sum(c.pages for c in aside.components.values())
    # ...and the packets are byte for byte those drawn in one process.
    assert aside.files == kit.files
    assert sorted(steps) == sorted(kit.components)


def test_pages_another_copy_of_the_canvas_could_not_match_are_not_handed_over() -> None:
    with kitdoc.drawing() as kit:
        since = kit.checkpoint()
        kit.begin((200.0, 100.0))
        kit.setFont(fonts.BOLD, 9)
        kit.drawString(10, 10, "Kako")
        handed = kit.handover(since)
        assert handed is not None
        assert [(page[2], page[3]) for page in handed.pages] == [
            ({fonts.BOLD: "Kako"}, (200.0, 100.0))]
        since = kit.checkpoint()
        kit.begin((200.0, 100.0))
        kit.setFont("Courier", 9)  # another copy of the canvas would name it differently
        kit.drawString(10, 10, "Kako")
        assert kit.handover(since) is None
        # Nor pages that place an object named by a counter, not by what it holds.
        since = kit.checkpoint()
        kit.begin((200.0, 100.0))
        kit.linkURL("https://example.org", (10, 10, 50, 20))
        assert kit.handover(since) is None


def test_font_subsets_are_deflated_once_and_kept_between_builds(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("QUARTERDECK_NO_CACHE", raising=False)
    made: list[str] = []

    def make(text: str) -> Callable[[], bytes]:
        return lambda: made.append(text) or text.encode() * 100  # type: ignore[func-returns-value]

    subsets = Subsets()
    font, cmap = ("font", "PTSans.ttf", "PTSans", (0, 32, 65)), ("cmap", "AAAAAA+PT", (0, 65))
    assert subsets.get(font, make("A")) == (zlib.compress(b"A" * 100), 100)
    assert subsets.get(cmap, make("B")) == (zlib.compress(b"B" * 100), None)
    assert subsets.get(font, make("X")) == (zlib.compress(b"A" * 100), 100)  # kept
    assert made == ["A", "B"]
    subsets.save()
    # The next build (a fresh process) reads them back from the user cache.
    again = Subsets()
    assert again.get(font, make("Y")) == (zlib.compress(b"A" * 100), 100) and made == ["A", "B"]
    # Bounded: the least recently used go first.
    again.LIMIT = len(zlib.compress(b"Z" * 100)) + len(zlib.compress(b"A" * 100))
    again.get(("font", "z", "z", (1,)), make("Z"))
    again.save()
    third = Subsets()
    assert third.get(font, make("A2"))[0] == zlib.compress(b"A" * 100)
    assert third.get(cmap, make("B2"))[0] == zlib.compress(b"B2" * 100)  # dropped


def test_a_stamped_page_number_sits_where_the_footer_keeps_it(
        drawn: tuple[pipeline.Kit, int]) -> None:
    """The number a packet stamps ends at the safe box's right edge, on the footer line,
    in the footer's face and size, as the page's own number did when drawn alone."""
    from reportlab.pdfbase import pdfmetrics

    from generator.core.units import MM
    from generator.pages.furniture import FOOTER_BASELINE, FOOTER_SIZE
    from generator.pages.layout import safe_box
    from tests.pdftext import open_pages

    kit, _ = drawn
    box = safe_box("a4")
    for name in ("allied.pdf", "referee.pdf"):
        labels = PdfReader(io.BytesIO(kit.files[name])).page_labels
        n = labels.index("Card-2")
        page = open_pages(kit.files[name], advance=True, only=[n])[0]
        stamp = f"page {n + 1} · back"
        text = "".join(c["text"] for c in page.chars)
        assert text.endswith(stamp)
        chars = page.chars[-len(stamp):]
        assert abs(chars[-1]["x1"] - box.right) < 0.01 * MM
        baseline = page.height - (box.y + FOOTER_BASELINE)
        assert all(abs(c["size"] - FOOTER_SIZE) < 0.01 for c in chars)
        face = pdfmetrics.getFont(fonts.NARROW).face.name.decode()
        assert all(c["fontname"].endswith(face) for c in chars), chars[0]["fontname"]
        assert all(baseline - 3 < c["bottom"] < baseline + 3 for c in chars)
