"""Writing packets: each packet's pages, outline and page labels from the drawn pages.

Apart from ``packets`` (which lays a packet out) and ``printnote`` (which draws the note
from that layout), so neither of those imports the other's caller.
"""

from __future__ import annotations

from generator.kit.packets import EMPTY, NOTE_KEY, PacketSpec, ordered, sheet_layout
from generator.kit.printnote import BLANK_LABEL, NOTE_LABEL, NOTE_TITLE, draw_blank, note_page
from generator.pages.component import Bookmark, Component
from generator.pages.kitdoc import KitCanvas, Label, write_packet
from generator.pages.outline import Mark
from generator.pages.subsets import SUBSETS


def assemble_drawn(kit: KitCanvas, specs: list[PacketSpec],
                   components: dict[str, Component]) -> dict[str, bytes]:
    """Write every packet of a build from the pages drawn on its canvas.

    The print notes and blank backs are drawn first (a packet's fonts are fixed once
    the first packet is written), then each packet is written with its pages in
    ``sheet_layout`` order, its outline and its page labels. The font subsets made on
    the way are kept for later packets and builds (``subsets.SUBSETS``).
    """
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
    """A component's bookmark as the packet's outline entry, on the page it was drawn."""
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
