"""Packets: rendered components merged into one PDF with bookmarks and page labels.

A packet prints double-sided in one pass. What a component declares decides where its
pages fall (``sheet_layout``):

* ``two_sided``: its pages are fronts and backs of sheets (a card, marker fronts and
  their backs). It starts on an odd page, so each front's back is the page after it,
  and an odd last page gets a blank back.
* ``cut_out``: its pages are cut up (tapes, rulers, gauge strips, marker sheets). A
  cut-out page never backs onto another page: a single-sided one gets a blank back.
* neither: pages to read, printed back to back.

Inserted pages say "This page is intentionally blank". With ``--duplex off`` the packet
is printed single-sided and nothing is inserted. A packet may open with a print note
(``PacketSpec.note_page``) saying which pages print how.

An event's packets are printed run by run instead (``PacketSpec.runs``): their cover
names each run of pages and its stock (paper or card, double- or single-sided), and the
print shop prints each run on its own. Their pages are ordered by run (``ordered``), a
single-sided run needs no blank backs, and the only blank pages left are inside a run of
fronts and backs: after an odd-length card or sheet that another follows, and the empty
backs of sheets whose pieces have none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from generator.pages.component import Bookmark, Component

if TYPE_CHECKING:
    from generator.pages.kitdoc import KitCanvas, Mark


@dataclass
class PacketSpec:
    """Which components, in which order, make one output file.

    Attributes:
        filename: The file's name.
        title: PDF title and the print note's heading.
        components: Component keys in page order.
        note_page: Open the packet with a page saying which pages print how.
        note: A line for that page from the recipe (where the table-wide items are).
        duplex: ``long`` or ``short`` (printed double-sided, blank backs inserted) or
            ``off`` (printed single-sided: nothing inserted).
        runs: Printed run by run, as an event's cover says (see ``ordered``), not in
            one pass.

    """

    filename: str
    title: str
    components: list[str]
    note_page: bool = False
    note: str = ""
    duplex: str = "long"
    runs: bool = False


BLANK = "This page is intentionally blank"
"""What an inserted page says, so that no one thinks a page failed to print."""
NOTE_KEY = "print-note"
"""The key of the print-note page in a packet's layout."""
EMPTY = ""
"""A component's drawn page name for a page it leaves empty (a back with nothing behind
its front): the packet prints a blank back there (``assemble_drawn``)."""


@dataclass(frozen=True)
class Placed:
    """One page of a packet.

    Page ``page`` of component ``key``, or an inserted blank (``key`` None), or the
    print note (``key`` ``NOTE_KEY``).
    """

    key: str | None
    page: int = 0


RUNS = ("double-sided on paper", "double-sided on card", "single-sided on card")
"""How a run of an event packet's pages prints, in the order the runs follow each other."""


def run_of(comp: Component) -> str:
    """How a component's pages print at an event (one of ``RUNS``).

    Pages to read go on paper; anything cut out or with fronts and backs (cards, marker
    and counter sheets) on card; cut-out pages without backs on one side of the card.
    """
    if comp.cut_out and not comp.two_sided:
        return RUNS[2]
    return RUNS[1] if comp.two_sided or comp.cut_out else RUNS[0]


def ordered(spec: PacketSpec, components: dict[str, Component]) -> list[str]:
    """The packet's components in page order.

    In one pass, the recipe's order. Printed run by run, the recipe fixes the order of
    the pages to read and the order of the pieces, but not where a piece stands among
    the pages to read (it is printed on other stock, and leaves the packet at the
    table): each run's components follow one another, runs in ``RUNS`` order, so no
    run is split and no sheet of card is left half used.
    """
    if not spec.runs:
        return list(spec.components)

    def place(key: str) -> tuple[int, bool]:
        # Within a run of fronts and backs, an odd-length component goes last: the run
        # ends after its last front, so that front needs no blank back.
        comp = components[key]
        return RUNS.index(run_of(comp)), comp.two_sided and comp.pages % 2 == 1

    return sorted(spec.components, key=place)


def sheet_layout(spec: PacketSpec, components: dict[str, Component]) -> list[Placed]:
    """Every page of the packet in order, with the blank pages double-sided printing needs.

    Two-sided components start on an odd page and end on an even one; each page of a
    one-sided cut-out component has a blank back; blanks at the very end are left off
    (the last sheet's back is empty anyway). A packet of one component gets none.

    Printed run by run (``PacketSpec.runs``), each run is printed on its own, so it
    starts on a sheet of its own wherever it falls in the file, and no blank page closes
    it; within a run, a two-sided component starts on a front, and a single-sided run is
    printed on one side of each sheet: its pages follow one another with no blank backs.

    A page its component left empty (``EMPTY``: a back with nothing behind its front)
    keeps its place, as a blank back.
    """
    out: list[Placed] = [Placed(NOTE_KEY)] if spec.note_page else []
    # A file of one component prints as it is (a ruler file single-sided, a card or a
    # marker file double-sided from its first page): nothing to insert.
    duplex = spec.duplex != "off" and len(spec.components) > 1
    previous, start = "", 0
    for key in ordered(spec, components):
        comp = components[key]
        run = run_of(comp)
        if spec.runs:
            if run != previous:
                # The run before ends on its last printed page: its sheet's back stays
                # empty without a blank page, and this run starts a sheet of its own.
                while out and out[-1].key is None:
                    out.pop()
                previous, start = run, len(out)
            elif duplex and comp.two_sided and (len(out) - start) % 2:
                out.append(Placed(None))
            out.extend(_placed(comp, key, page) for page in range(comp.pages))
            continue
        if duplex and (comp.two_sided or comp.cut_out) and len(out) % 2:
            out.append(Placed(None))
        for page in range(comp.pages):
            out.append(_placed(comp, key, page))
            if duplex and comp.cut_out and not comp.two_sided:
                out.append(Placed(None))
        if duplex and comp.two_sided and comp.pages % 2:
            out.append(Placed(None))
    while out and out[-1].key is None:
        out.pop()
    return out


def _placed(comp: Component, key: str, page: int) -> Placed:
    """Page ``page`` of a component, or a blank back where it left the page empty."""
    empty = page < len(comp.drawn) and comp.drawn[page] == EMPTY
    return Placed(None) if empty else Placed(key, page)


def packet_pages(spec: PacketSpec, components: dict[str, Component]) -> int:
    """Pages the packet will have, counting its print note and inserted blank pages."""
    return len(sheet_layout(spec, components))


def assemble_drawn(kit: KitCanvas, specs: list[PacketSpec],
                   components: dict[str, Component]) -> dict[str, bytes]:
    """Write every packet of a build from the pages drawn on its canvas.

    The print notes and blank backs are drawn first (a packet's fonts are fixed once
    the first packet is written), then each packet is written with its pages in
    ``sheet_layout`` order, its outline and its page labels. The font subsets made on
    the way are kept for later packets and builds (``subsets.SUBSETS``).
    """
    from generator.kit.printnote import BLANK_LABEL, NOTE_LABEL, NOTE_TITLE, draw_blank, note_page
    from generator.pages.kitdoc import Label, Mark, write_packet
    from generator.pages.subsets import SUBSETS

    plans = []
    for spec in specs:
        layout = sheet_layout(spec, components)
        names: list[str] = []
        marks: list[Mark] = []
        labels: list[Label] = []
        previous = (595.28, 841.89)
        for index, placed in enumerate(layout):
            if placed.key is None:
                # A blank back takes the size and turn of the page it backs.
                draw_blank(*previous)
                name = kit.page_names[-1]
                labels.append(Label(index, BLANK_LABEL, numbered=False))
            elif placed.key == NOTE_KEY:
                first = components[spec.components[0]] if spec.components else None
                size = kit.sizes[first.drawn[0]] if first and first.drawn else previous
                note_page(spec, components, layout, size)
                name = kit.page_names[-1]
                marks.append(Mark(NOTE_TITLE, name))
                labels.append(Label(index, NOTE_LABEL))
            else:
                name = components[placed.key].drawn[placed.page]
            names.append(name)
            previous = kit.sizes[name]
        for key in ordered(spec, components):
            comp = components[key]
            marks.append(Mark(comp.title, comp.drawn[0],
                              children=[_mark(b, comp.drawn) for b in comp.bookmarks
                                        if comp.drawn[b.page] != EMPTY]))
            at = [(i, p.page) for i, p in enumerate(layout) if p.key == key]
            labels.extend(Label(start, comp.label, first + 1)
                          for start, first in _runs(at))
        labels.sort(key=lambda label: label.index)
        plans.append((spec, names, marks, labels))
    files = {spec.filename: write_packet(kit, names, title=spec.title, marks=marks,
                                         labels=labels, prefix=f"P{n}.")
             for n, (spec, names, marks, labels) in enumerate(plans)}
    SUBSETS.save()
    return files


def _mark(mark: Bookmark, drawn: list[str]) -> Mark:
    from generator.pages.kitdoc import Mark
    return Mark(mark.title, drawn[mark.page], mark.top,
                [_mark(child, drawn) for child in mark.children])


def _runs(pages: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Where each run of a component's pages, adjacent in the packet, starts.

    Args:
        pages: (packet page, the component page it shows) of each of its pages.

    Returns:
        (packet page, the component page it shows) for the first page of each run.

    """
    out = []
    for i, (index, page) in enumerate(pages):
        if i == 0 or index != pages[i - 1][0] + 1:
            out.append((index, page))
    return out
