"""Nothing on a tape is printed over anything else (issue 29, item 5).

Savo Island's range tapes (both sides, both named scales, torpedo tapes among them) are
rendered through the shared strip engine and read back: no two words overlap (a knot's
"aimed-shot limit" over a graduation's "4,000"), no tick line runs under a colour bar,
and the notes under the first page's heading keep a cutting gap above the first strip.
"""

from __future__ import annotations

from typing import Any

import pytest

from generator.aids.rangestrings import render_tapes
from generator.aids.strips import BAR_WIDTH, SegmentView
from generator.core.scales import NAMED_SCALES
from generator.core.units import MM
from tests.pdftext import Page, open_pages

TOL = 0.01 * MM


@pytest.fixture(scope="module")
def tapes() -> list[tuple[list[Page], list[SegmentView]]]:
    from generator.data.library import validated_library
    from generator.rulesets.naval_action import RULESET
    from generator.rulesets.naval_action.aids import range_strings
    from generator.rulesets.naval_action.cardtables import load_tables

    library = validated_library([])
    scenario = library.scenarios["savo-island"].model
    tables = load_tables()
    out = []
    for scale_name in ("tabletop", "floor"):
        scale = NAMED_SCALES[scale_name]
        for side_views in RULESET._views(library, scenario, scale).values():
            strings = range_strings(side_views, scale, tables)
            component, views = render_tapes(strings, scale, "a4", "t", "tapes", "Tapes", "T-")
            out.append((open_pages(component.pdf, geometry=True), views))
    return out


def _inside(box: dict[str, Any], page: Page, view: SegmentView) -> bool:
    top = page.height - view.top
    return (box["x0"] >= view.x(view.start - view.tab) - TOL and box["x1"] <= view.x(view.end)
            + TOL and box["top"] >= top - TOL and box["bottom"] <= top + view.height + TOL)


def _overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return (a["x0"] < b["x1"] - TOL and b["x0"] < a["x1"] - TOL
            and a["top"] < b["bottom"] - TOL and b["top"] < a["bottom"] - TOL)


def test_no_label_overlaps_another(tapes: list[tuple[list[Page], list[SegmentView]]]) -> None:
    words = 0
    for pages, views in tapes:
        for view in views:
            page = pages[view.page]
            on = [w for w in page.extract_words() if _inside(w, page, view)]
            words += len(on)
            for i, a in enumerate(on):
                for b in on[i + 1:]:
                    assert not _overlap(a, b), (a["text"], b["text"], view.strip)
    assert words > 200


def test_no_tick_hides_under_a_colour_bar(
        tapes: list[tuple[list[Page], list[SegmentView]]]) -> None:
    bars = 0
    for pages, views in tapes:
        for view in views:
            page = pages[view.page]
            coloured = [r for r in page.rects if r["fill"] and abs(r["width"] - BAR_WIDTH) < TOL
                        and _inside(r, page, view)]
            bars += len(coloured)
            for line in page.lines:
                if abs(line["x0"] - line["x1"]) > TOL or not _inside(line, page, view):
                    continue
                for bar in coloured:
                    assert not (bar["x0"] - TOL < line["x0"] < bar["x1"] + TOL
                                and line["top"] < bar["bottom"] and line["bottom"] > bar["top"]), \
                        (view.strip, line["x0"], bar)
    assert bars > 20


def test_notes_keep_a_cutting_gap_above_the_first_strip(
        tapes: list[tuple[list[Page], list[SegmentView]]]) -> None:
    for pages, views in tapes:
        first = views[0]
        page = pages[first.page]
        strip_top = page.height - first.top
        above = [c for c in page.chars if c["bottom"] <= strip_top + TOL]
        notes_bottom = max(c["bottom"] for c in above)
        assert strip_top - notes_bottom >= 1.5 * MM - TOL
