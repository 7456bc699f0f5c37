"""Prose as a component: a story laid out on the page engine, its anchors as bookmarks.

A briefing or a reference card's rules are platypus flowables (``markup_to_flowables``)
that ``tablestyle.render_flow`` lays out; the component a packet places wants the same
bytes with the anchors turned into bookmarks, which every such page did by hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportlab.platypus import Flowable

from generator.pages.component import Bookmark, Component
from generator.pages.layout import Paper
from generator.pages.pages import Block
from generator.pages.tablestyle import render_flow


def prose_component(story: Sequence[Flowable | Block], paper: Paper, title: str, footer: str,
                    key: str, label: str, prefix: str, two_sided: bool = False) -> Component:
    """Lay a story out (``render_flow``) as one component bookmarked at its anchors.

    Args:
        story: Flowables and blocks in reading order, ``Anchor``s marking bookmarks.
        paper: Paper size.
        title: The PDF's title.
        footer: Footer text on each page.
        key: The component's stable id (``briefing:allied``).
        label: Its top-level bookmark title.
        prefix: Its page-label prefix (``Brief-``).
        two_sided: Its pages are printed back to back.

    Returns:
        The component.

    """
    result = render_flow(story, paper, title, footer)
    marks = [Bookmark(name, page, top) for name, page, top in result.anchors]
    return Component(key, label, prefix, result.pdf, result.pages, marks, two_sided=two_sided)
