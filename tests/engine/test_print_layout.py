"""Layout of the sheets players read (issue 18, printing item 4).

The Surface Action data sheet fills its page, neither class list clips a name, old-deck
armor on the NAVAL ACTION status sheet cannot read as "04" and is explained beside it,
and no player's packet points to a page only the referee holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pdfplumber
import pypdfium2 as pdfium
import pytest

from generator.core.units import MM
from generator.kit.pipeline import BuildResult, validated_library
from generator.rulesets.naval_action.cardtables import active
from generator.rulesets.naval_action.components.catalog import render_catalog as master_list
from generator.rulesets.naval_action.components.status_sheet import old_deck_note
from generator.rulesets.surface_action.charts import load_charts
from generator.rulesets.surface_action.components.catalog import render_catalog

if TYPE_CHECKING:
    from tests.conftest import Kits


@pytest.fixture(scope="module")
def plate(kits: Kits) -> BuildResult:
    return kits.build("river-plate")


@pytest.fixture(scope="module")
def komandorski(kits: Kits) -> BuildResult:
    return kits.build("komandorski")


def texts(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def labels_of(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(str(path))
    try:
        return [doc.get_page_label(i) for i in range(len(doc))]
    finally:
        doc.close()


def outline_titles(path: Path) -> set[str]:
    """The titles of the outline's top level."""
    doc = pdfium.PdfDocument(str(path))
    try:
        return {item.get_title() for item in doc.get_toc() if item.level == 0}
    finally:
        doc.close()


def test_a_short_data_sheet_fills_its_page(plate: BuildResult) -> None:
    for name in ("british.pdf", "german.pdf"):
        path = plate.folder / name
        labels = labels_of(path)
        index = next(i for i, label in enumerate(labels) if "Data-" in label)
        with pdfplumber.open(path, pages=[index + 1]) as pdf:  # that page only
            page = pdf.pages[0]
            body = [c for c in page.chars if c["top"] < page.height - 20 * MM]
            # the ship's name and its values are set larger than the 7-7.5 pt of old
            assert max(c["size"] for c in body) >= 11.5, name
            assert sorted(c["size"] for c in body)[len(body) // 2] >= 9.5, name
            # the rows, boxes, notes lines and notes reach past 60 % of the page height
            lowest = max(o["bottom"] for o in [*body, *page.lines, *page.rects]
                         if o["bottom"] < page.height - 20 * MM)
            assert lowest / page.height > 0.6, (name, lowest / page.height)


def test_the_class_list_never_clips_a_class_name() -> None:
    library = validated_library([])
    classes = [e.model for e in library.classes_of("surface-action").values()]
    long = classes[0].model_copy(update={"name": "Leberecht Maass Modified Long Name Class"})
    component = render_catalog([*classes, long], load_charts(), "a4")
    text = " ".join(" ".join(texts_of(component.pdf)).split())
    assert "…" not in text
    for cls in [*classes, long]:
        for word in cls.name.split():
            assert word in text, cls.name


def test_the_master_list_prints_every_class_and_ship_whole() -> None:
    library = validated_library([])
    classes = [e.model for e in library.classes_of("naval-action").values()]
    component = master_list(classes, "a4")
    pages = texts_of(component.pdf)
    text = " ".join(" ".join(pages).split())
    # Nothing clipped, and every class and (for a short class) every ship named whole,
    # with the loss marks: the cells are plain text on the page engine's grid.
    assert "…" not in text
    for cls in classes:
        assert cls.name.split()[0] in text, cls.name
        if len(cls.ships) <= 10:
            for ship in cls.ships:
                assert ship.name.split()[0] in text, ship.name
    assert "†" in text
    # One bookmark per navy, each on the page that shows its heading.
    for mark in component.bookmarks:
        assert mark.title in " ".join(pages[mark.page].split()), mark.title
    assert component.pages == len(pages)


def texts_of(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    finally:
        doc.close()


def test_old_deck_armor_cannot_read_as_a_zero(komandorski: BuildResult) -> None:
    # Richmond (Omaha class) has old-deck armor
    pages = texts(komandorski.folder / "american.pdf")
    page = next(t for t in pages if "RICHMOND" in t)
    flat = " ".join(page.split())
    assert "ARMOR 4 old old deck: see notes" in flat  # the factor, "old", then the pointer
    assert " ".join(old_deck_note(4, active()).split()) in flat
    assert "letter O" in flat
    # "O4" appears only inside the sentence that explains it
    assert flat.count("O4") == 1


def test_player_packets_never_point_to_referee_pages(komandorski: BuildResult,
                                                     plate: BuildResult) -> None:
    checked = []
    for result in (komandorski, plate):
        referee_only = outline_titles(result.folder / "referee.pdf")
        for name in result.files:
            if name in ("referee.pdf", "back-offset-check.pdf"):  # not a player's packet
                continue
            titles = outline_titles(result.folder / name)
            text = " ".join(texts(result.folder / name))
            if "Ship classes in this scenario" in referee_only - titles:
                assert "Master List" not in text, name
                checked.append(name)
            if "Victory points" in referee_only - titles:
                assert "victory sheet" not in text.lower(), name
                checked.append(name)
    # NAVAL ACTION's player packets (Surface Action's referee has neither section)
    assert sorted(checked) == ["american.pdf"] * 2 + ["japanese.pdf"] * 2
