"""Read the PDFs back: names, factors, tick boxes, sizes, margins, bookmarks, fonts."""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.aids.rangestrings import PALETTE
from generator.core.units import MM
from generator.kit.pipeline import BuildResult, build
from generator.pages.autofit import LABEL_FLOOR
from generator.pieces.imposition import ID_SIZE
from tests import builds
from tests.pdftext import Page

A4 = (595.2756, 841.8898)
LETTER = (612.0, 792.0)
BOX = 3.4 * MM


def text_of(path: Path) -> str:
    """The file's text (pypdfium2, read once per session)."""
    return builds.text(path)


def test_side_packets_hold_only_their_own_ships(savo: BuildResult) -> None:
    japanese = text_of(savo.folder / "japanese.pdf")
    allied = text_of(savo.folder / "allied.pdf")
    referee = text_of(savo.folder / "referee.pdf")
    for name in ("CHŌKAI", "AOBA", "KAKO", "KINUGASA", "FURUTAKA", "TENRYŪ", "YŪBARI", "YŪNAGI"):
        assert name in japanese
        assert name in referee
        assert name not in allied
    for name in ("CANBERRA", "CHICAGO", "VINCENNES", "QUINCY", "ASTORIA", "RALPH TALBOT"):
        assert name in allied
        assert name in referee
        assert name not in japanese


# The session's builds where there is one (conftest), else one composed in memory.
SHARED = {"savo-island": "savo", "sunda-strait": "sunda"}


def packet_text(scenario: str, name: str, request: pytest.FixtureRequest) -> str:
    if scenario in SHARED:
        result: BuildResult = request.getfixturevalue(SHARED[scenario])
        return text_of(result.folder / name)
    return "\n".join(builds.kit_texts(scenario, name))


@pytest.mark.parametrize("scenario", ["savo-island", "second-sirte", "komandorski",
                                      "sunda-strait"])
def test_no_enemy_ship_named_in_a_side_packet(scenario: str,
                                              request: pytest.FixtureRequest) -> None:
    """Hidden information: not in sheets, not in the briefing, not in any spelling."""
    from generator.data.library import validated_library
    from generator.rulesets.naval_action.resolve import find_ship

    library = validated_library([])
    model = library.scenarios[scenario].model
    classes = library.classes_of("naval-action")
    names: dict[str, set[str]] = {}
    class_labels: dict[str, set[str]] = {}
    for side in model.sides:
        class_labels[side.id] = {f"{classes[r.class_].model.name} class".casefold()
                                 for r in side.ships}
        found = set()
        for ref in side.ships:
            ship = find_ship(classes[ref.class_].model, ref.name)
            assert ship is not None
            found |= {ship.name, *ship.aka}
        names[side.id] = found
    for side in model.sides:
        own = packet_text(scenario, f"{side.id}.pdf", request).casefold()
        # Matchup pages name enemy *classes* ("Perth (Modified Leander) class CL"): what
        # the model on the table shows. A class named after a ship is not a leak.
        for sid, labels in class_labels.items():
            if sid != side.id:
                for label in labels:
                    own = own.replace(label, "")
        # Range strings are named by thread colour ("blue thread"); USS Blue is a ship.
        for colour, _ in PALETTE:
            own = own.replace(f"{colour} thread", "")
        enemy = set().union(*(n for sid, n in names.items() if sid != side.id))
        # A name shared by both sides' ships (none today) could not be checked.
        enemy -= names[side.id]
        for name in enemy:
            pattern = r"(?<!\w)" + re.escape(name.casefold()) + r"(?!\w)"
            assert not re.search(pattern, own), (side.id, name)


def ship_block(page: Page, name: str) -> tuple[float, float]:
    """(top, bottom) of a ship's block on a sheet page, in top-down y."""
    big = [w for w in page.layout_words(by_size=True) if w["size"] > 15]
    mine = next(w["top"] for w in big if w["text"] == name.split()[0])
    later = sorted(w["top"] for w in big if w["top"] > mine + 1)
    return mine - 10, (later[0] - 10 if later else page.height)


def find_ship_page(path: Path, name: str) -> Page:
    for page in builds.pages(path, geometry=True):
        if any(w["text"] == name.split()[0] and w["size"] > 15
               for w in page.layout_words(by_size=True)):
            return page
    raise AssertionError(f"{name} not found")


def words_in(page: Page, top: float, bottom: float) -> list[dict]:
    return [w for w in page.layout_words(by_size=True) if top <= w["top"] < bottom]


def tick_boxes(page: Page, top: float, bottom: float) -> list[dict]:
    return [r for r in page.rects if abs(r["width"] - BOX) < 0.05 and abs(r["height"] - BOX) < 0.05
            and top <= r["top"] < bottom]


def row_boxes(page: Page, label: str, top: float, bottom: float) -> int:
    """Tick boxes in the battery row whose first cell is ``label``."""
    words = words_in(page, top, bottom)
    row = next(w for w in words if w["text"] == label and w["x0"] < 80)
    later = sorted(w["top"] for w in words if w["x0"] < 80 and w["top"] >
                   row["top"] + 3 and w["text"] in ("BOW", "STN", "C", "L", "R", "LB", "RB", "LS",
                                                    "RS", "TORPEDOES"))
    end = later[0] if later else bottom
    # Boxes start 1.5 mm below the row line, about 7 pt above the label text.
    return len(tick_boxes(page, row["top"] - 9, end - 9))


def test_factors_and_ammunition_boxes_for_astoria(savo: BuildResult) -> None:
    page = find_ship_page(savo.folder / "allied.pdf", "ASTORIA")
    top, bottom = ship_block(page, "ASTORIA")
    text = " ".join(w["text"] for w in words_in(page, top, bottom))
    # armor 5 (5in belt), 32.7 kn, 588 ft, AA 2, Poor DC (Aug 1942), SC radar, CS 5
    for fact in ("5", "32.7", "588", "2", "Poor", "SC", "10,620", "21,240", "31,860",
                 "4,834", "9,667", "14,500"):
        assert fact in text.split(), fact
    # 150 rounds of 8in at 10 a turn: 15 boxes; 200 rounds of 5in at 15 a turn: 14.
    assert row_boxes(page, "BOW", top, bottom) == 15
    assert row_boxes(page, "STN", top, bottom) == 15
    assert row_boxes(page, "L", top, bottom) == 14
    assert row_boxes(page, "R", top, bottom) == 14


def test_houston_scenario_limits(sunda: BuildResult) -> None:
    page = find_ship_page(sunda.folder / "allied.pdf", "HOUSTON")
    top, bottom = ship_block(page, "HOUSTON")
    text = " ".join(w["text"] for w in words_in(page, top, bottom))
    assert row_boxes(page, "BOW", top, bottom) == 2  # 20 rounds: two turns
    assert row_boxes(page, "STN", top, bottom) == 0
    assert "OUT OF ACTION" in text
    assert "20 rds/gun (scenario limit)" in text


def test_torpedo_and_reload_boxes(savo: BuildResult) -> None:
    # Aoba: two side mounts of 4 x 24in with 4 reloads each.
    page = find_ship_page(savo.folder / "japanese.pdf", "AOBA")
    top, bottom = ship_block(page, "AOBA")
    words = words_in(page, top, bottom)
    torp_top = next(w["top"] for w in words if w["text"] == "TORPEDOES")
    damage_top = next(w["top"] for w in words if w["text"] == "DAMAGE"
                      and w["top"] > torp_top)
    assert len(tick_boxes(page, torp_top, damage_top)) == 2 * (4 + 4)


@pytest.mark.parametrize("fixture,size", [("savo", A4), ("savo_letter", LETTER)])
def test_page_sizes_margins_and_type_sizes(fixture: str, size: tuple[float, float],
                                           request: pytest.FixtureRequest) -> None:
    result: BuildResult = request.getfixturevalue(fixture)
    margin = 10 * MM
    for name in result.files:
        labels = PdfReader(result.folder / name).page_labels
        for number, page in enumerate(builds.pages(result.folder / name, geometry=True)):
            # Rulers, tapes and gauge strips run along landscape pages.
            turned = (size[1], size[0])
            assert (page.width, page.height) in (pytest.approx(size, abs=0.01),
                                                 pytest.approx(turned, abs=0.01))
            # on a sheet of marker backs, a back's ground runs 1.5 mm past its trim
            # (clipped there), so it may reach that far into the margin
            ground = 1.5 * MM if "Markers-" in labels[number] else 0.0
            for obj in page.chars + page.rects + page.lines:
                slack = 0.01 + (ground if obj["object_type"] == "rect" else 0.0)
                assert obj["x0"] >= margin - slack and obj["x1"] <= page.width - margin + slack
                assert obj["top"] >= margin - slack
                assert obj["bottom"] <= page.height - margin + slack
            if not page.chars and not page.rects and not page.lines:
                # the only blank pages: before double-sided marker sheets
                assert "Markers-" in labels[number + 1]
                continue
            # Marker labels have their own floor (a 9 mm destroyer marker is shorter
            # than its name at 7 pt); the 1 pt ids are invisible.
            floor = LABEL_FLOOR if "Markers-" in labels[number] else 7.0
            sizes = [c["size"] for c in page.chars if abs(c["size"] - ID_SIZE) > 1e-6]
            # the default build has an honest label at 6 pt or more for every piece (a
            # stem such as "Bagl. DD" where the whole name is too long), so nothing under
            # the floor and nothing reported
            assert sizes and min(sizes) >= floor - 1e-6, (name, number)
    assert not [w for w in result.warnings if "label" in w]


def test_bookmarks_and_page_labels(savo: BuildResult) -> None:
    reader = PdfReader(savo.folder / "referee.pdf")

    def titles(outline: list) -> list[str]:
        out = []
        for item in outline:
            out.extend(titles(item) if isinstance(item, list) else [item.title])
        return out

    names = titles(reader.outline)
    for expected in ("Briefing", "Ship status: Japanese Striking Force",
                     "Ship status: Allied Screening Force", "Blank status master",
                     "Ship classes in this scenario", "Chōkai", "Astoria", "Jarvis",
                     "Imperial Japanese Navy (JP)"):
        assert expected in names
    labels = reader.page_labels
    assert labels[:2] == ["Note-1", "Brief-1"]
    assert "JAPANESE-1" in labels and "ALLIED-1" in labels and "Master-1" in labels
    assert len(labels) == len(reader.pages)


def test_fonts_are_not_duplicated(savo: BuildResult) -> None:
    reader = PdfReader(savo.folder / "referee.pdf")
    programs: Counter[str] = Counter()
    seen = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            if "/FontDescriptor" not in font:
                continue
            ref = font["/FontDescriptor"].get_object().raw_get("/FontFile2")
            if ref.idnum not in seen:
                seen.add(ref.idnum)
                programs[str(font["/BaseFont"])] += 1
    # One copy of each subset for the whole packet, whatever the components (a subset
    # is named by what it holds, so a second copy would carry the same name).
    for face in ("PTSans-Regular", "PTSans-Bold", "PTSans-Narrow"):
        assert any(base.endswith("+" + face) for base in programs), programs
    assert set(programs.values()) == {1}, programs


def test_manifest_lists_every_file_with_hash(savo: BuildResult) -> None:
    manifest = json.loads(savo.manifest.read_text())
    files = {entry["file"]: entry for entry in manifest["files"]}
    assert set(files) == {"japanese.pdf", "allied.pdf", "referee.pdf", "back-offset-check.pdf",
                          "pieces.json"}
    for name, entry in files.items():
        data = (savo.folder / name).read_bytes()
        assert entry["sha256"] == hashlib.sha256(data).hexdigest()
        pages = len(PdfReader(savo.folder / name).pages) if name.endswith(".pdf") else 0
        assert entry["pages"] == pages


def test_builds_are_byte_identical(savo: BuildResult, tmp_path: Path) -> None:
    again = build("savo-island", out=tmp_path)
    for name in savo.files:
        assert (again.folder / name).read_bytes() == (savo.folder / name).read_bytes(), name
    assert again.manifest.read_bytes() == savo.manifest.read_bytes()


def test_print_scaling_none(savo: BuildResult) -> None:
    reader = PdfReader(savo.folder / "referee.pdf")
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
