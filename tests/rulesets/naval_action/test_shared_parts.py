"""The pieces NAVAL ACTION now takes from shared modules say what they did in place.

``kit.shipkit`` (data kinds, preview names and ``--scale`` of the two rulesets of ship
classes and scenarios), ``data.referenceclasses`` (whom a proof kit meets),
``pages.prose`` (a story as a bookmarked component) and the Action Card's
``noted``/``explained`` section bodies.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pypdf
import pytest
from reportlab.platypus import Paragraph

from generator.core.errors import DataError, UsageError
from generator.data.datamodel import Nation
from generator.data.referenceclasses import reference_classes
from generator.kit.shipkit import SHEET_PREVIEWS, scale_option, ship_kinds
from generator.pages.pages import Spacer
from generator.pages.prose import prose_component
from generator.pages.refcard import gap
from generator.pages.tablestyle import Anchor, styles
from generator.rulesets.naval_action import schema as na_schema
from generator.rulesets.naval_action.components.card_parts import explained, noted
from generator.rulesets.naval_action.ruleset import RULESET as NAVAL_ACTION
from generator.rulesets.surface_action import schema as sa_schema
from generator.rulesets.surface_action.ruleset import RULESET as SURFACE_ACTION


def test_both_rulesets_declare_their_kinds_and_previews_through_shipkit() -> None:
    assert NAVAL_ACTION.data_kinds == {"ship-class": na_schema.ShipClass,
                                       "scenario": na_schema.Scenario}
    assert SURFACE_ACTION.data_kinds == {"ship-class": sa_schema.ShipClass,
                                         "scenario": sa_schema.Scenario}
    assert ship_kinds(na_schema.ShipClass, na_schema.Scenario) is not ship_kinds(
        na_schema.ShipClass, na_schema.Scenario)  # each ruleset holds its own mapping
    assert NAVAL_ACTION.preview_names == SURFACE_ACTION.preview_names == SHEET_PREVIEWS
    assert SHEET_PREVIEWS == {"status": "sheets", "marker": "markers", "counter": "markers"}


def test_a_bad_scale_is_a_usage_error_naming_the_option() -> None:
    assert scale_option("floor").name == "floor"
    with pytest.raises(UsageError) as err:
        scale_option("1/0 yd per cm")
    assert str(err.value) == ("--scale: found '1/0 yd per cm', expected a fraction whose "
                              "divisor is not 0")


def test_prose_component_bookmarks_each_anchor_where_it_stands() -> None:
    body = styles()["body"]
    story = [Anchor("First"), Paragraph("One.", body), Anchor("Second"),
             Paragraph("Two.", body)]
    component = prose_component(story, "a4", "Title", "the footer", "key:x", "Label", "L-",
                                two_sided=True)
    assert (component.key, component.title, component.label) == ("key:x", "Label", "L-")
    assert component.two_sided and component.pages == 1
    marks = component.bookmarks
    assert [(b.title, b.page) for b in marks] == [("First", 0), ("Second", 0)]
    assert marks[0].top is not None and marks[1].top is not None
    assert marks[0].top > marks[1].top  # the second stands lower on the page
    reader = pypdf.PdfReader(io.BytesIO(component.pdf))
    text = reader.pages[0].extract_text()
    assert text.index("One.") < text.index("Two.") and "the footer" in text


def test_section_bodies_put_block_gap_and_text_in_order() -> None:
    block = Spacer(5)
    body = explained(block, 1.2, "first rule", "second rule")
    assert body[0] is block and len(body) == 4
    assert body[1].wrap(100) == pytest.approx(gap(1.2).wrap(100))
    assert ["first rule" in b.text for b in body[2:]] == [True, False]
    noted_body = noted(block, 0.8, "the note")
    assert noted_body[0] is block and len(noted_body) == 3
    assert noted_body[1].wrap(100) == pytest.approx(gap(0.8).wrap(100))
    assert "the note" in noted_body[2].text


@dataclass
class _Entry:
    model: Any


@dataclass
class _Class:
    id: str
    nation: Nation


class _Library:
    """Just what ``reference_classes`` reads of a library: one ruleset's classes by id."""

    def __init__(self, *classes: _Class) -> None:
        self.classes = {c.id: _Entry(c) for c in classes}

    def classes_of(self, ruleset: str) -> dict[str, _Entry]:
        assert ruleset == "naval-action"
        return self.classes


REFS = ("axis_navies: [JP, DE]\nallied: [fletcher, atlanta, gone]\n"
        "axis: [kagero, takao]\n")


@pytest.mark.parametrize(("own", "expected"), [
    (_Class("takao", Nation.JP), ["fletcher", "atlanta"]),   # axis meets allied; 'gone' absent
    (_Class("fletcher", Nation.US), ["kagero", "takao"]),    # any other navy meets axis
    (_Class("kagero", Nation.UK), ["takao"]),                # the class itself left out
])
def test_reference_classes_are_the_other_sides_that_the_library_holds(
        tmp_path: Path, own: _Class, expected: list[str]) -> None:
    path = tmp_path / "reference-classes.yaml"
    path.write_text(REFS, encoding="utf-8")
    library = _Library(*(_Class(c, Nation.US) for c in ("fletcher", "atlanta")),
                       *(_Class(c, Nation.JP) for c in ("kagero", "takao")))
    found = reference_classes(path, "refs.yaml", library, "naval-action", own)  # type: ignore[arg-type]
    assert [c.id for c in found] == expected


def test_a_bad_reference_file_is_refused_where_it_is_wrong(tmp_path: Path) -> None:
    path = tmp_path / "reference-classes.yaml"
    path.write_text("axis_navies: [JP]\nallied: []\naxis: [kagero]\n", encoding="utf-8")
    with pytest.raises(DataError) as err:
        reference_classes(path, "refs.yaml", _Library(), "naval-action", _Class("x", Nation.JP))  # type: ignore[arg-type]
    assert [str(p) for p in err.value.problems] == [
        "refs.yaml:2:9: allied: found a list, expected at least 1 item(s)"]
