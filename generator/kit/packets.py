"""Packets: rendered components merged into one PDF with bookmarks and page labels.

A packet is printed run by run (``PacketSpec.runs``, what every build does): its pages
are ordered by how they print (``ordered``), pages to read first, double-sided on paper;
then fronts with their backs (cards, marker and counter sheets), double-sided on card;
then pages cut out of one side of a sheet (tapes, rulers, gauges, strips), single-sided
on card. ``print_sections`` reads the runs back from the assembled layout, for the print
note (``kit.printnote``) and an event's cover (``kit.eventprint``). Within a run of fronts
and backs a component starts on a front, so an odd-length one goes last (its last front
needs no blank back); a single-sided run needs no blank backs at all.

At home (``PacketSpec.one_job``, a build's packets) every double-sided run also starts on
an odd page of the file, so the paper and card runs print as one double-sided job on a
printer with one kind of paper: the pages to read get a blank back when they end on a
front. An event's print shop prints each run on its own, so its runs need no such blank.

A packet printed in one pass (``runs`` false) keeps the recipe's order: a ``two_sided``
component starts on an odd page and an odd last page gets a blank back; each page of a
``cut_out`` one gets a blank back, so it never backs onto another page.

Inserted pages say "This page is intentionally blank". With ``--duplex off`` the packet
is printed single-sided and nothing is inserted. A packet may open with a print note
(``PacketSpec.note_page``) saying which pages print how.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.pages.component import Component


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
        runs: Printed run by run (see ``ordered``), not in one pass.
        one_job: Printed run by run, and every double-sided run starts on an odd page
            of the file, so those runs also print together as one double-sided job.

    """

    filename: str
    title: str
    components: list[str]
    note_page: bool = False
    note: str = ""
    duplex: str = "long"
    runs: bool = False
    one_job: bool = False


BLANK = "This page is intentionally blank"
"""What an inserted page says, so that no one thinks a page failed to print."""
NOTE_KEY = "print-note"
"""The key of the print-note page in a packet's layout."""
EMPTY = ""
"""A component's drawn page name for a page it leaves empty (a back with nothing behind
its front): the packet prints a blank back there (``generator.kit.assemble``)."""


@dataclass(frozen=True)
class Placed:
    """One page of a packet.

    Page ``page`` of component ``key``, or an inserted blank (``key`` None), or the
    print note (``key`` ``NOTE_KEY``).
    """

    key: str | None
    page: int = 0


RUNS = ("double-sided on paper", "double-sided on card", "single-sided on card")
"""How a run of a packet's pages prints, in the order the runs follow each other."""
SINGLE = ("single-sided on paper", "single-sided on card")
"""How the runs print with ``--duplex off``: pages to read, then everything cut out."""


def rank(comp: Component) -> int:
    """Which run a component's pages join: 0 to read, 1 fronts and backs, 2 cut one side."""
    if comp.cut_out and not comp.two_sided:
        return 2
    return 1 if comp.two_sided or comp.cut_out else 0


def run_of(comp: Component, duplex: str = "long") -> str:
    """How a component's pages print (one of ``RUNS``, or of ``SINGLE`` with duplex off).

    Pages to read go on paper; anything cut out or with fronts and backs (cards, marker
    and counter sheets) on card; cut-out pages without backs on one side of the card.
    """
    if duplex == "off":
        return SINGLE[min(rank(comp), 1)]
    return RUNS[rank(comp)]


def _odd(comp: Component) -> bool:
    """A component of fronts and backs whose last printed page is a front.

    Its length is odd once the empty backs that close it (``EMPTY``) are left off: placed
    last in its run, it needs no blank back.
    """
    pages = comp.pages
    while pages and pages <= len(comp.drawn) and comp.drawn[pages - 1] == EMPTY:
        pages -= 1
    return comp.two_sided and pages % 2 == 1


_READING = Component("", "", "", b"", 1)
"""A page to read, as ``run_of`` sees it (the print note)."""


def ordered(spec: PacketSpec, components: dict[str, Component]) -> list[str]:
    """The packet's components in page order.

    In one pass, the recipe's order. Printed run by run, the recipe fixes the order of
    the pages to read and the order of the pieces, but not where a piece stands among
    the pages to read (it is printed on other stock, and is cut out anyway): each run's
    components follow one another, runs in ``RUNS`` order, so no run is split and no
    sheet of card is left half used. Within a run of fronts and backs, an odd-length
    component goes last: the run ends after its last front, so that front needs no
    blank back.
    """
    if not spec.runs:
        return list(spec.components)
    return sorted(spec.components,
                  key=lambda key: (rank(components[key]), _odd(components[key])))


def sheet_layout(spec: PacketSpec, components: dict[str, Component]) -> list[Placed]:
    """Every page of the packet in order, with the blank pages double-sided printing needs.

    Printed run by run (``PacketSpec.runs``), each run starts on a sheet of its own, and
    no blank page closes it; within a run, a two-sided component starts on a front, and
    a single-sided run is printed on one side of each sheet: its pages follow one another
    with no blank backs. With ``one_job`` a double-sided run also starts on an odd page of
    the file (the run before gets a blank back), so the double-sided runs print as one.

    In one pass, two-sided components start on an odd page and end on an even one; each
    page of a one-sided cut-out component has a blank back; blanks at the very end are
    left off (the last sheet's back is empty anyway).

    A packet of one component gets none. A page its component left empty (``EMPTY``: a
    back with nothing behind its front) keeps its place, as a blank back.
    """
    out: list[Placed] = [Placed(NOTE_KEY)] if spec.note_page else []
    # A file of one component prints as it is (a ruler file single-sided, a card or a
    # marker file double-sided from its first page): nothing to insert.
    duplex = spec.duplex != "off" and len(spec.components) > 1
    # The print note is read: it opens the run of pages to read.
    previous, start = (run_of(_READING, spec.duplex) if spec.note_page else ""), 0
    for key in ordered(spec, components):
        comp = components[key]
        run = run_of(comp, spec.duplex)
        if spec.runs:
            if run != previous:
                # The run before ends on its last printed page: its sheet's back stays
                # empty without a blank page, and this run starts a sheet of its own.
                while out and out[-1].key is None:
                    out.pop()
                if duplex and spec.one_job and run.startswith("double") and len(out) % 2:
                    out.append(Placed(None))  # printed in one job with the run before
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


@dataclass
class Section:
    """A run of a packet's pages printed one way."""

    first: int
    last: int
    how: str
    """One of ``RUNS`` (or of ``SINGLE`` with duplex off)."""


def print_sections(layout: list[Placed], components: dict[str, Component], lead: int,
                   duplex: str = "long") -> list[Section]:
    """How each run of the final file's pages prints, from its assembled layout.

    ``lead`` pages come first (an event's cover, read on paper), then the packet's pages
    in ``layout`` order, numbered from 1 through the whole file. The print note is read
    on paper; an inserted blank page is the back of the sheet before it, so it belongs
    to that sheet's run (never a run of its own, and never billed as card unless it
    backs a card).
    """
    paper = run_of(_READING, duplex)
    runs: list[Section] = [Section(1, lead, paper)] if lead else []
    for number, placed in enumerate(layout, start=lead + 1):
        comp = components.get(placed.key or "")
        if comp is not None:
            how = run_of(comp, duplex)
        else:
            how = paper if placed.key == NOTE_KEY or not runs else runs[-1].how
        if runs and runs[-1].how == how and runs[-1].last == number - 1:
            runs[-1].last = number
        else:
            runs.append(Section(number, number, how))
    return runs


def _placed(comp: Component, key: str, page: int) -> Placed:
    """Page ``page`` of a component, or a blank back where it left the page empty."""
    empty = page < len(comp.drawn) and comp.drawn[page] == EMPTY
    return Placed(None) if empty else Placed(key, page)


def packet_pages(spec: PacketSpec, components: dict[str, Component]) -> int:
    """Pages the packet will have, counting its print note and inserted blank pages."""
    return len(sheet_layout(spec, components))
