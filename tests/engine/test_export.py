"""Image export: exact PNG sizes and content, and Tabletop Simulator sheets."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.errors import RenderError, UsageError
from generator.core.units import MM
from generator.pieces.export import _grid, export_pngs, export_tts
from generator.pieces.pieces import Art, Piece

RGB = tuple[float, float, float]


def fill(color: RGB) -> Art:
    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        c.setFillColorRGB(*color)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
    return art


def left_black(c: Canvas, w: float, h: float, bleed: float) -> None:
    c.setFillColorRGB(0, 0, 0)
    c.rect(0, 0, w / 2, h, stroke=0, fill=1)


def marker(c: Canvas, w: float, h: float, bleed: float) -> None:
    """A typical small counter: background, text, a few circles."""
    fill((0.9, 0.85, 0.7))(c, w, h, bleed)
    c.setFillColorRGB(0, 0, 0)
    c.setFont(fonts.BOLD, 7)
    c.drawString(2, h - 8, "CHOKAI")
    for i in range(3):
        c.circle(w - 6 - 6 * i, 6, 2, stroke=1, fill=i % 2)


RED = fill((1, 0, 0))
BLUE = fill((0, 0, 1))
GREEN = fill((0, 1, 0))


def piece(id: str, w_mm: float = 15.24, h_mm: float = 8.0, front: Art = RED,
          back: Art | None = None, quantity: int = 1) -> Piece:
    return Piece(id, id.title(), w_mm * MM, h_mm * MM, front, back, quantity)


def px(mm: float, dpi: int) -> int:
    return round(mm * dpi / 25.4)


def is_red(p: tuple[int, ...]) -> bool:
    return p[0] > 200 and p[1] < 60 and p[2] < 60


def is_grey(p: tuple[int, ...]) -> bool:
    return max(p[:3]) - min(p[:3]) < 8 and 100 < p[0] < 160


# --------------------------------------------------------------------------- PNGs


@pytest.mark.parametrize("dpi", [150, 300, 600])
@pytest.mark.parametrize("size", [(15.24, 8.0), (63.0, 88.0), (25.4, 25.4), (16.0, 9.0)])
def test_png_is_exactly_the_trim_size_at_the_dpi(tmp_path: Path, size: tuple[float, float],
                                                dpi: int) -> None:
    w_mm, h_mm = size
    [entry] = export_pngs([piece("ship.chokai", w_mm, h_mm)], tmp_path, dpi=dpi)
    assert (entry.id, entry.face, entry.path) == ("ship.chokai", "front", "ship.chokai.png")
    assert (entry.width_px, entry.height_px) == (px(w_mm, dpi), px(h_mm, dpi))
    with Image.open(tmp_path / "ship.chokai.png") as img:
        assert img.size == (px(w_mm, dpi), px(h_mm, dpi))
        # pHYs stores whole pixels per metre: 150 dpi is 5905.5 /m, read back as 150.012.
        assert img.info["dpi"] == pytest.approx((dpi, dpi), abs=0.02)
        assert img.mode == "RGB"  # white background, no transparency


def test_art_is_placed_left_half_dark_right_half_light(tmp_path: Path) -> None:
    export_pngs([piece("half", 20, 10, front=left_black)], tmp_path, dpi=300)
    with Image.open(tmp_path / "half.png") as img:
        rgb = img.convert("RGB")
        w, h = rgb.size
        for y in range(h):
            assert sum(rgb.getpixel((0, y))) < 60  # type: ignore[arg-type]
            assert sum(rgb.getpixel((w // 4, y))) < 60  # type: ignore[arg-type]
            assert sum(rgb.getpixel((3 * w // 4, y))) > 700  # type: ignore[arg-type]
            assert sum(rgb.getpixel((w - 1, y))) > 700  # type: ignore[arg-type]


def test_a_full_bleed_face_reaches_every_edge_pixel(tmp_path: Path) -> None:
    # Sizes whose raw PDFium render would be one pixel too big: cropping or padding that
    # pixel would leave a white line along an edge.
    export_pngs([piece("red", 15.24, 8.0), piece("red2", 63, 88)], tmp_path, dpi=150)
    for name in ("red.png", "red2.png"):
        with Image.open(tmp_path / name) as img:
            rgb = img.convert("RGB")
            w, h = rgb.size
            edges = ([(x, 0) for x in range(w)] + [(x, h - 1) for x in range(w)]
                     + [(0, y) for y in range(h)] + [(w - 1, y) for y in range(h)])
            assert all(is_red(rgb.getpixel(xy)) for xy in edges)  # type: ignore[arg-type]


@pytest.mark.parametrize("size", [(15.24, 8.0), (63.0, 88.0), (16.0, 9.0)])
def test_the_trim_box_maps_onto_the_pixel_grid_exactly(tmp_path: Path,
                                                       size: tuple[float, float]) -> None:
    # A frame 0.9 pixel wide along every edge: it must darken the outermost pixels
    # and nothing inside them, so the art is neither shifted, cropped nor shrunk.
    w_mm, h_mm = size
    w_px, h_px = px(w_mm, 300), px(h_mm, 300)

    def frame(c: Canvas, w: float, h: float, bleed: float) -> None:
        dx, dy = 0.9 * w / w_px, 0.9 * h / h_px  # 0.9: clear of float noise at the next pixel
        c.setFillColorRGB(0, 0, 0)
        for x, y, fw, fh in ((0, 0, dx, h), (w - dx, 0, dx, h), (0, 0, w, dy),
                             (0, h - dy, w, dy)):
            c.rect(x, y, fw, fh, stroke=0, fill=1)

    export_pngs([piece("frame", w_mm, h_mm, front=frame)], tmp_path, dpi=300)
    with Image.open(tmp_path / "frame.png") as img:
        grey = img.convert("L")
        for y in range(2, h_px - 2):
            assert grey.getpixel((0, y)) < 80 and grey.getpixel((w_px - 1, y)) < 80  # type: ignore[operator]
            assert grey.getpixel((1, y)) > 200 and grey.getpixel((w_px - 2, y)) > 200  # type: ignore[operator]
        for x in range(2, w_px - 2):
            assert grey.getpixel((x, 0)) < 80 and grey.getpixel((x, h_px - 1)) < 80  # type: ignore[operator]
            assert grey.getpixel((x, 1)) > 200 and grey.getpixel((x, h_px - 2)) > 200  # type: ignore[operator]


def test_backs_get_their_own_file_with_their_own_art(tmp_path: Path) -> None:
    entries = export_pngs([piece("a", front=RED, back=BLUE), piece("b")], tmp_path)
    assert [(e.id, e.face, e.path) for e in entries] == [
        ("a", "front", "a.png"), ("a", "back", "a.back.png"), ("b", "front", "b.png")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.back.png", "a.png", "b.png"]
    with Image.open(tmp_path / "a.back.png") as back, Image.open(tmp_path / "a.png") as front:
        assert back.convert("RGB").getpixel((5, 5))[2] > 200  # type: ignore[index]
        assert is_red(front.convert("RGB").getpixel((5, 5)))  # type: ignore[arg-type]


def test_the_same_piece_twice_is_written_once(tmp_path: Path) -> None:
    a = piece("a")
    twin = piece("a")  # equal fields, another object: draws the same
    assert [e.path for e in export_pngs([a, a, twin], tmp_path)] == ["a.png"]


def test_different_pieces_with_one_id_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="'ship.chokai'"):
        export_pngs([piece("ship.chokai", front=RED), piece("ship.chokai", front=BLUE)],
                    tmp_path)
    with pytest.raises(RenderError, match="'ship.chokai'"):
        export_tts([piece("ship.chokai", 10, 10), piece("ship.chokai", 12, 10)], tmp_path)
    assert not list(tmp_path.iterdir())  # nothing half-written


@pytest.mark.parametrize("bad", ["../escape", "a/b", ".hidden", ""])
def test_ids_that_are_not_file_names_are_refused(tmp_path: Path, bad: str) -> None:
    with pytest.raises(RenderError, match="file name"):
        export_pngs([piece(bad)], tmp_path)


def test_file_name_clashes_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match=r"a\.back\.png"):
        export_pngs([piece("a", back=BLUE), piece("a.back")], tmp_path)


@pytest.mark.parametrize("dpi", [71, 1201, 0, -300])
def test_dpi_out_of_range_is_a_usage_error(tmp_path: Path, dpi: int) -> None:
    message = f"dpi must be a whole number from 72 to 1200, not {dpi}"
    with pytest.raises(UsageError) as info:
        export_pngs([piece("a")], tmp_path, dpi=dpi)
    assert str(info.value) == message
    with pytest.raises(UsageError) as info:
        export_tts([piece("a")], tmp_path, dpi=dpi)
    assert str(info.value) == message


def test_dpi_must_be_a_whole_number(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"not 300\.5$"):
        export_pngs([piece("a")], tmp_path, dpi=300.5)  # type: ignore[arg-type]


def test_dpi_limits_are_accepted(tmp_path: Path) -> None:
    assert export_pngs([piece("a", 10, 10)], tmp_path / "lo", dpi=72)[0].width_px == px(10, 72)
    assert export_pngs([piece("a", 10, 10)], tmp_path / "hi", dpi=1200)[0].width_px == px(
        10, 1200)


def test_a_failing_face_names_the_piece(tmp_path: Path) -> None:
    def broken(c: Canvas, w: float, h: float, bleed: float) -> None:
        raise ValueError("no such gun")

    with pytest.raises(RenderError, match="back of ship.chokai: no such gun"):
        export_pngs([piece("ship.aoba"), piece("ship.chokai", back=broken)], tmp_path)


def test_a_piece_too_small_for_the_dpi_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RenderError, match="'dot'.*72 dpi"):
        export_pngs([piece("dot", 0.1, 5)], tmp_path, dpi=72)


def markers(n: int) -> list[Piece]:
    return [Piece(f"m.{i:03d}", f"M{i}", 16 * MM, 9 * MM, marker,
                  marker if i % 3 == 0 else None) for i in range(n)]


def test_output_is_byte_identical_between_runs(tmp_path: Path) -> None:
    pieces = markers(12)
    first = export_pngs(pieces, tmp_path / "one")
    second = export_pngs(pieces, tmp_path / "two")
    assert first == second
    for entry in first:
        assert (tmp_path / "one" / entry.path).read_bytes() == (
            tmp_path / "two" / entry.path).read_bytes()
    export_tts(pieces, tmp_path / "tts1")
    export_tts(pieces, tmp_path / "tts2")
    names = sorted(p.name for p in (tmp_path / "tts1").iterdir())
    assert names == sorted(p.name for p in (tmp_path / "tts2").iterdir())
    for name in names:
        assert (tmp_path / "tts1" / name).read_bytes() == (tmp_path / "tts2" / name).read_bytes()


def test_forked_and_in_process_output_are_identical(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pieces = markers(40)
    forked = export_pngs(pieces, tmp_path / "forked")
    monkeypatch.setenv("QUARTERDECK_JOBS", "1")
    here = export_pngs(pieces, tmp_path / "here")
    assert forked == here
    for entry in forked:
        assert (tmp_path / "forked" / entry.path).read_bytes() == (
            tmp_path / "here" / entry.path).read_bytes()


# --------------------------------------------------------------------------- TTS


def load(folder: Path) -> dict[str, Any]:
    data = json.loads((folder / "tts.json").read_text())
    assert isinstance(data, dict)
    return data


def sheets_of(folder: Path) -> list[dict[str, Any]]:
    sheets = load(folder)["sheets"]
    assert isinstance(sheets, list)
    return sheets


def cell(sheet: Image.Image, entry: dict[str, int], slot: int,
         at: Callable[[int, int], tuple[int, int]] = lambda w, h: (w // 2, h // 2),
         ) -> tuple[int, ...]:
    w, h = entry["card_width_px"], entry["card_height_px"]
    row, column = divmod(slot, entry["columns"])
    dx, dy = at(w, h)
    pixel = sheet.convert("RGB").getpixel((column * w + dx, row * h + dy))
    assert isinstance(pixel, tuple)
    return pixel


def test_150_copies_fill_three_sheets_with_the_hidden_face_last(tmp_path: Path) -> None:
    manifest = export_tts([piece("ship.chokai", quantity=150)], tmp_path)
    data = load(tmp_path)
    assert data == manifest.as_json()
    sheets = data["sheets"]
    assert isinstance(sheets, list)
    assert [s["count"] for s in sheets] == [69, 69, 12]
    assert [s["file"] for s in sheets] == [f"15.24x8.00mm-{n}.png" for n in (1, 2, 3)]
    assert (sheets[0]["columns"], sheets[0]["rows"]) == (10, 7)
    for s in sheets:
        assert s["back_file"] is None
        assert 1 <= s["columns"] <= 10 and 2 <= s["rows"] <= 7
        assert s["hidden_slot"] == s["columns"] * s["rows"] - 1
        assert s["count"] < s["columns"] * s["rows"]
        assert [slot["slot"] for slot in s["slots"]] == list(range(s["count"]))
        assert {slot["id"] for slot in s["slots"]} == {"ship.chokai"}
        with Image.open(tmp_path / s["file"]) as img:
            assert img.size == (s["columns"] * s["card_width_px"],
                                s["rows"] * s["card_height_px"])
            assert max(img.size) <= 4096
            assert (s["card_width_px"], s["card_height_px"]) == (px(15.24, 300), px(8, 300))
            for slot in range(s["count"]):
                assert is_red(cell(img, s, slot))
            # The hidden face is grey (away from the "?" in its middle)...
            assert is_grey(cell(img, s, s["hidden_slot"], lambda w, h: (3, 3)))
            # ...and its "?" is white, within the cell's middle third.
            w, h = s["card_width_px"], s["card_height_px"]
            row, column = divmod(s["hidden_slot"], s["columns"])
            middle = img.convert("RGB").crop((column * w + w // 3, row * h + h // 4,
                                              column * w + 2 * w // 3, row * h + 3 * h // 4))
            white = sum(middle.convert("L").histogram()[231:])
            assert white > 0.05 * middle.width * middle.height
    with Image.open(tmp_path / sheets[2]["file"]) as img:
        for slot in range(12, sheets[2]["hidden_slot"]):  # unused cells stay white
            assert min(cell(img, sheets[2], slot)) > 250


def test_slots_follow_the_input_order_and_quantities(tmp_path: Path) -> None:
    pieces = [piece("b", quantity=2), piece("a", front=BLUE), piece("c", quantity=3)]
    export_tts(pieces, tmp_path)
    [sheet] = sheets_of(tmp_path)
    assert [s["id"] for s in sheet["slots"]] == ["b", "b", "a", "c", "c", "c"]
    assert sheet["count"] == 6
    with Image.open(tmp_path / sheet["file"]) as img:
        assert is_red(cell(img, sheet, 1)) and cell(img, sheet, 2)[2] > 200


def test_big_cards_are_scaled_down_to_4096_px(tmp_path: Path) -> None:
    export_tts([piece("card", 63, 88, quantity=69)], tmp_path, dpi=300)
    [sheet] = sheets_of(tmp_path)
    assert (sheet["columns"], sheet["rows"]) == (10, 7)
    w, h = sheet["card_width_px"], sheet["card_height_px"]
    assert w < px(63, 300) and h < px(88, 300)
    assert 10 * w <= 4096 and 7 * h <= 4096
    assert w / h == pytest.approx(63 / 88, abs=0.005)  # aspect kept
    assert 10 * w > 4096 - 10 or 7 * h > 4096 - 7  # not shrunk more than needed
    with Image.open(tmp_path / sheet["file"]) as img:
        assert img.size == (10 * w, 7 * h)
        assert is_red(cell(img, sheet, 0)) and is_red(cell(img, sheet, 68))
        assert is_grey(cell(img, sheet, 69, lambda w, h: (3, 3)))


def test_few_big_cards_prefer_a_grid_that_needs_no_scaling(tmp_path: Path) -> None:
    export_tts([piece("card", 63, 88, quantity=12)], tmp_path, dpi=300)
    [sheet] = sheets_of(tmp_path)
    assert (sheet["card_width_px"], sheet["card_height_px"]) == (px(63, 300), px(88, 300))
    assert sheet["columns"] * sheet["rows"] >= 13


def test_mixed_sizes_go_to_separate_sheets_in_first_appearance_order(tmp_path: Path) -> None:
    pieces = [piece("small.a", 16, 9), piece("big", 63, 88, front=BLUE),
              piece("small.b", 16.001, 9)]  # within 0.01 mm: the same size
    export_tts(pieces, tmp_path)
    sheets = sheets_of(tmp_path)
    assert [s["file"] for s in sheets] == ["16.00x9.00mm-1.png", "63.00x88.00mm-1.png"]
    assert [[x["id"] for x in s["slots"]] for s in sheets] == [["small.a", "small.b"], ["big"]]
    assert (sheets[0]["card_width_px"], sheets[1]["card_width_px"]) == (px(16, 300),
                                                                        px(63, 300))
    with Image.open(tmp_path / sheets[1]["file"]) as img:
        assert cell(img, sheets[1], 0)[2] > 200


def test_back_sheet_only_when_a_piece_on_the_sheet_has_a_back(tmp_path: Path) -> None:
    pieces = [piece("plain", 16, 9), piece("two.sided", 20, 20, back=BLUE),
              piece("one.sided", 20, 20, front=GREEN)]
    export_tts(pieces, tmp_path)
    plain, mixed = sheets_of(tmp_path)
    assert plain["back_file"] is None
    assert mixed["back_file"] == "20.00x20.00mm-1-back.png"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "16.00x9.00mm-1.png", "20.00x20.00mm-1-back.png", "20.00x20.00mm-1.png", "tts.json"]
    with Image.open(tmp_path / mixed["back_file"]) as back:
        assert back.size == (mixed["columns"] * mixed["card_width_px"],
                             mixed["rows"] * mixed["card_height_px"])
        assert cell(back, mixed, 0)[2] > 200  # the back of two.sided
        assert cell(back, mixed, 1)[1] > 200 and cell(back, mixed, 1)[0] < 60  # front
        assert is_grey(cell(back, mixed, mixed["hidden_slot"], lambda w, h: (3, 3)))


def test_a_custom_hidden_face_is_used(tmp_path: Path) -> None:
    export_tts([piece("a", quantity=3)], tmp_path, hidden=BLUE)
    [sheet] = sheets_of(tmp_path)
    with Image.open(tmp_path / sheet["file"]) as img:
        hidden = cell(img, sheet, sheet["hidden_slot"])
        assert hidden[2] > 200 and hidden[0] < 60


def test_no_copies_no_sheets(tmp_path: Path) -> None:
    manifest = export_tts([piece("gone", quantity=0)], tmp_path)
    assert manifest.sheets == ()
    assert load(tmp_path) == {"dpi": 300, "sheets": []}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tts.json"]


def test_tts_json_has_sorted_keys_and_indent_2(tmp_path: Path) -> None:
    manifest = export_tts([piece("a")], tmp_path)
    text = (tmp_path / "tts.json").read_text()
    assert text == json.dumps(manifest.as_json(), indent=2, sort_keys=True) + "\n"


@pytest.mark.parametrize("size", [(189, 106), (744, 1039), (2000, 300)])
def test_every_count_gets_a_valid_grid(size: tuple[int, int]) -> None:
    for count in range(1, 70):
        columns, rows, (w, h) = _grid(count, *size)
        assert columns <= 10 and 2 <= rows <= 7
        assert columns * rows >= count + 1
        assert columns * w <= 4096 and rows * h <= 4096
    assert _grid(69, *size)[:2] == (10, 7)
