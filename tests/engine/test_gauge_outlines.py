"""The firing-arc protractor and the turn gauge print everything inside their cut line.

Issue 29, item 5. Both gauges are rendered (A4 and Letter) and read back: the cut outline
is the largest circle on the page; every tick and every character of the gauge lies
inside it with 1 mm to spare. The protractor names each ring's battery at its sector
edges, carries a legend, and prints no battery name in its centre disc.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from generator.aids.gauges import LEGEND, cut_radius
from generator.core.scales import NAMED_SCALES
from generator.core.units import MM
from generator.rulesets.naval_action.aids import protractor_rings
from generator.rulesets.naval_action.cardtables import load_tables
from generator.rulesets.naval_action.components.aids import render_gauges
from tests.pdftext import Page, open_pages

TOL = 0.01 * MM


@pytest.fixture(scope="module", params=["a4", "letter"])
def pages(request: pytest.FixtureRequest) -> list[Page]:
    component = render_gauges(load_tables(), NAMED_SCALES["tabletop"], request.param, "kit")
    return open_pages(component.pdf, geometry=True)


def _cut_circle(page: Page) -> tuple[float, float, float]:
    """(cx, cy, r) of the largest circle (top measured from the page's top edge)."""
    circles = [c for c in page.curves if abs(c["width"] - c["height"]) < TOL]
    big = max(circles, key=lambda c: c["width"])
    return (big["x0"] + big["x1"]) / 2, (big["top"] + big["bottom"]) / 2, big["width"] / 2


def _corners(box: dict[str, Any]) -> list[tuple[float, float]]:
    return [(x, y) for x in (box["x0"], box["x1"]) for y in (box["top"], box["bottom"])]


@pytest.mark.parametrize("number", [0, 1])
def test_every_tick_and_label_lies_inside_the_cut_line(pages: list[Page], number: int) -> None:
    page = pages[number]
    cx, cy, r = _cut_circle(page)
    band = (cy - r - 4 * MM, cy + r + 4 * MM)  # the gauge's rows: not the notes or bars

    def inside(box: dict[str, Any], spare: float) -> bool:
        return all(math.hypot(x - cx, y - cy) <= r - spare + TOL for x, y in _corners(box))

    chars = [c for c in page.chars if band[0] < c["top"] and c["bottom"] < band[1]]
    assert len(chars) > 30
    for ch in chars:
        assert inside(ch, 1 * MM), (ch["text"], ch["x0"], ch["top"])
    lines = [ln for ln in page.lines if band[0] < ln["top"] and ln["bottom"] < band[1]]
    assert len(lines) > 30  # the ticks
    for line in lines:
        assert inside(line, 0.0), line


def test_protractor_names_each_ring_at_its_edges_and_has_a_legend(pages: list[Page]) -> None:
    page = pages[0]
    cx, cy, r = _cut_circle(page)
    rings = protractor_rings(load_tables().rules)
    rim = r - (cut_radius(0.0))
    centre = rim - len(rings) * 6.5 * MM  # the innermost ring's inner edge
    text = page.text.replace("\n", " ")
    for _, words in LEGEND:
        assert words in text
    for ring in rings:
        # read along the ring: a name rotated by pdfium may come back in any order, so
        # count its letters against its number of edges
        edges = sum(2 for start, end in ring.arcs)
        letters = ring.label.replace(" ", "")
        assert text.replace(" ", "").count(letters) >= min(edges, 2) or edges == 0, ring.label
    # in the centre disc only the legend and the ship's head, never a battery's name
    names = {ring.label for ring in rings} | {"BOW", "STERN"}
    for word in page.extract_words():
        x, y = (word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2
        if math.hypot(x - cx, y - cy) < centre - 1 * MM:
            assert word["text"] not in names, word["text"]
