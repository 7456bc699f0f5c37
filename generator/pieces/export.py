"""Export pieces as images: one PNG per face, and Tabletop Simulator deck sheets.

Every face is drawn with ReportLab exactly as on the printed sheet (``draw_face`` with no
bleed, so the image is the trim box) and rasterised with PDFium. The PNGs are named after
the piece's ``id`` so a VASSAL module or a TTS save built from them can be rebuilt later
and still find its images.

Output is byte-identical between runs: ReportLab runs with ``invariant=1``, PDFium is
deterministic, and Pillow writes no timestamp (only the pHYs chunk carrying the DPI).
The faces are rasterised by ``generator.pieces.rasterise``.
"""

from __future__ import annotations

import functools
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.errors import RenderError, UsageError
from generator.core.output import write_atomic
from generator.core.units import MM
from generator.pages.autofit import shrunk_size
from generator.pieces.pieces import Art, Piece
from generator.pieces.rasterise import (
    WHITE,
    RasterJob,
    imaging,
    png_bytes,
    render_jobs,
    spread,
)

if TYPE_CHECKING:
    from PIL.Image import Image

Face = Literal["front", "back"]

DPI_MIN = 72
DPI_MAX = 1200
TTS_MAX_COLUMNS = 10
TTS_MAX_ROWS = 7
TTS_MIN_ROWS = 2  # TTS rejects a custom deck with a single row
TTS_MAX_PX = 4096  # the largest image side TTS loads reliably
TTS_MANIFEST = "tts.json"


@dataclass(frozen=True)
class ExportedImage:
    """One PNG written by ``export_pngs``.

    Attributes:
        id: The piece's id.
        face: ``front`` or ``back``.
        path: File name relative to the export folder (``ship.chokai.back.png``).
        width_px: Image width in pixels.
        height_px: Image height in pixels.

    """

    id: str
    face: Face
    path: str
    width_px: int
    height_px: int


@dataclass(frozen=True)
class TTSSlot:
    """One occupied card position on a TTS sheet (row-major, 0 = top-left)."""

    slot: int
    id: str


@dataclass(frozen=True)
class TTSSheet:
    """One Tabletop Simulator custom-deck image (and its optional unique-backs image).

    Attributes:
        file: Front sheet file name, relative to the export folder.
        back_file: Back sheet file name, or None when no piece on the sheet has a back.
        columns: Cards per row (TTS "width").
        rows: Rows of cards (TTS "height").
        card_width_px: Width of one card cell in pixels.
        card_height_px: Height of one card cell in pixels.
        count: Pieces on the sheet (copies counted, the hidden face not).
        hidden_slot: Index of the slot holding the hidden face (always the last one).
        slots: The occupied slots in order, each with its piece id.

    """

    file: str
    back_file: str | None
    columns: int
    rows: int
    card_width_px: int
    card_height_px: int
    count: int
    hidden_slot: int
    slots: tuple[TTSSlot, ...]

    def as_json(self) -> dict[str, object]:
        """The sheet as written to ``tts.json``."""
        return {
            "file": self.file, "back_file": self.back_file, "columns": self.columns,
            "rows": self.rows, "card_width_px": self.card_width_px,
            "card_height_px": self.card_height_px, "count": self.count,
            "hidden_slot": self.hidden_slot,
            "slots": [{"slot": s.slot, "id": s.id} for s in self.slots],
        }


@dataclass(frozen=True)
class TTSManifest:
    """What ``export_tts`` wrote.

    Attributes:
        dpi: The resolution the cards were rendered at (before any scaling down).
        sheets: Every sheet, grouped by trim size in order of first appearance.
        file: The manifest's file name relative to the export folder.

    """

    dpi: int
    sheets: tuple[TTSSheet, ...]
    file: str = TTS_MANIFEST

    def as_json(self) -> dict[str, object]:
        """The manifest as written to ``tts.json``."""
        return {"dpi": self.dpi, "sheets": [sheet.as_json() for sheet in self.sheets]}


# --------------------------------------------------------------------------- PNGs


def export_pngs(pieces: Sequence[Piece], folder: Path, dpi: int = 300) -> list[ExportedImage]:
    """Write one PNG per face of each distinct piece.

    The front goes to ``<id>.png`` and the back, if any, to ``<id>.back.png``. Each image
    is the trim box, exactly ``round(width_mm * dpi / 25.4)`` by
    ``round(height_mm * dpi / 25.4)`` pixels on a white background, with the DPI stored
    in the file. A piece listed more than once is written once.

    Args:
        pieces: The pieces, in the order the images are listed.
        folder: Where the PNGs go (created if needed).
        dpi: Resolution, 72 to 1200.

    Returns:
        One entry per file written, fronts and backs in piece order.

    Raises:
        UsageError: When ``dpi`` is out of range or the imaging packages are missing.
        RenderError: When two different pieces share an id, an id cannot be a file name,
            a piece is too small for the DPI, or a face fails to draw.
        OutputError: When a file cannot be written.

    """
    _check_dpi(dpi)
    distinct = distinct_pieces(pieces)
    entries: list[ExportedImage] = []
    jobs: list[RasterJob] = []
    for piece in distinct:
        width_px, height_px = pixel_size(piece.width, piece.height, dpi, f"piece {piece.id!r}")
        faces: list[tuple[Face, Art]] = [("front", piece.front)]
        if piece.back is not None:
            faces.append(("back", piece.back))
        for face, art in faces:
            name = f"{piece.id}.png" if face == "front" else f"{piece.id}.back.png"
            entries.append(ExportedImage(piece.id, face, name, width_px, height_px))
            jobs.append(RasterJob(f"{face} of {piece.id}", art, piece.width, piece.height,
                             width_px, height_px))
    _check_file_names(entries)
    # The workers write their own files: creating 1,200 files is a good part of the time.
    render_jobs(jobs, dpi, [folder / entry.path for entry in entries])
    return entries


def _check_dpi(dpi: int) -> None:
    # bool is an int subclass; True would otherwise pass as 1 dpi and fail the range.
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not DPI_MIN <= dpi <= DPI_MAX:
        raise UsageError(f"dpi must be a whole number from {DPI_MIN} to {DPI_MAX}, not {dpi!r}")


def distinct_pieces(pieces: Sequence[Piece]) -> list[Piece]:
    """The pieces with repeats removed, in first-appearance order; ids must be unique."""
    seen: dict[str, Piece] = {}
    for piece in pieces:
        other = seen.get(piece.id)
        if other is None:
            if not piece.id or piece.id.startswith(".") or any(
                    ch in piece.id for ch in "/\\\0"):
                # The id names files in the export folder: it must not escape it, hide
                # the file, or clash with the ".quarterdeck-" temporaries (generator.core.output).
                raise RenderError(f"piece id {piece.id!r} cannot be used as a file name")
            seen[piece.id] = piece
        elif other is not piece and other != piece:
            raise RenderError(f"two different pieces share the id {piece.id!r} "
                              f"({other.title!r} and {piece.title!r})")
    return list(seen.values())


def _check_file_names(entries: Sequence[ExportedImage]) -> None:
    # "a.back" and the back of "a" would both be "a.back.png"; compare case-folded
    # because macOS and Windows folders do.
    owners: dict[str, ExportedImage] = {}
    for entry in entries:
        key = entry.path.casefold()
        if key in owners:
            raise RenderError(f"the {entry.face} of {entry.id!r} and the "
                              f"{owners[key].face} of {owners[key].id!r} would both be "
                              f"written to {entry.path}")
        owners[key] = entry


def pixel_size(width: float, height: float, dpi: int, label: str) -> tuple[int, int]:
    """Pixel size of a trim box: ``round(mm * dpi / 25.4)`` on each axis."""
    # Go through millimetres on purpose: the size is defined (and tested) that way, and
    # the two float paths can round differently on an exact half pixel.
    width_px = round(width / MM * dpi / 25.4)
    height_px = round(height / MM * dpi / 25.4)
    if width_px < 1 or height_px < 1:
        raise RenderError(f"{label} is smaller than one pixel at {dpi} dpi")
    return width_px, height_px



# --------------------------------------------------------------------------- TTS


def question_mark_face(canvas: Canvas, width: float, height: float, bleed: float) -> None:
    """The default hidden face: plain mid-grey with a white "?" centred.

    Args:
        canvas: Where to draw (origin at the trim box's lower-left).
        width: Trim width (points).
        height: Trim height (points).
        bleed: How far the background runs past the trim (points).

    """
    fonts.register()
    canvas.setFillColorRGB(0.5, 0.5, 0.5)
    canvas.rect(-bleed, -bleed, width + 2 * bleed, height + 2 * bleed, stroke=0, fill=1)
    # Size the mark by its cap height (about 0.7 em in PT Sans Bold) to 60 % of the
    # shorter side, then shrink it if it would be too wide; centre the cap height
    # (not the em box) so it looks centred.
    cap = 0.7
    size = 0.6 * min(width, height) / cap
    size = shrunk_size("?", fonts.BOLD, size, 0.8 * width, floor=0.1)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.setFont(fonts.BOLD, size)
    canvas.drawCentredString(width / 2, (height - cap * size) / 2, "?")


@dataclass(frozen=True)
class _Layout:
    """A planned sheet: its grid, card size, and the piece in each slot."""

    columns: int
    rows: int
    card_px: tuple[int, int]
    pieces: tuple[Piece, ...]  # slot i holds pieces[i]
    size_name: str  # "15.24x8.00mm": names the files and the size's hidden face
    number: int  # counts the sheets of one size from 1


def export_tts(pieces: Sequence[Piece], folder: Path, dpi: int = 300,
               hidden: Art | None = None) -> TTSManifest:
    """Write Tabletop Simulator custom-deck sheets and a ``tts.json`` describing them.

    Pieces are grouped by trim size (to 0.01 mm) in order of first appearance; each copy
    (``quantity``) takes one slot, row by row. A sheet holds up to 10 x 7 slots and its
    last slot always holds the hidden face, so at most 69 pieces. Smaller grids are used
    for fewer pieces (see ``_grid``). Cards are rendered at ``dpi`` and scaled down,
    keeping their aspect, when the sheet would exceed 4096 px on a side. A sheet on
    which some piece has a back also gets a unique-backs sheet with the same grid
    (one-sided pieces show their front there; the hidden slot shows the hidden face).

    Files are ``<W>x<H>mm-<n>.png`` (and ``<W>x<H>mm-<n>-back.png``), numbered per
    size from 1, e.g. ``15.24x8.00mm-1.png``.

    Args:
        pieces: The pieces, in slot order.
        folder: Where the sheets and ``tts.json`` go (created if needed).
        dpi: Resolution of the cards before any scaling down, 72 to 1200.
        hidden: The face TTS shows for hidden cards; by default ``question_mark_face``.

    Returns:
        The manifest, as written to ``tts.json``.

    Raises:
        UsageError: When ``dpi`` is out of range or the imaging packages are missing.
        RenderError: When two different pieces share an id, a quantity is negative,
            a piece is too small for the DPI, or a face fails to draw.
        OutputError: When a file cannot be written.

    """
    _check_dpi(dpi)
    hidden_art = hidden if hidden is not None else question_mark_face
    distinct_pieces(pieces)  # same id checks as the PNGs, so the two exports agree on ids
    groups: dict[tuple[float, float], list[Piece]] = {}
    for piece in pieces:
        if piece.quantity < 0:
            raise RenderError(f"piece {piece.id!r} has a negative quantity")
        pixel_size(piece.width, piece.height, dpi, f"piece {piece.id!r}")
        key = (round(piece.width / MM, 2), round(piece.height / MM, 2))
        groups.setdefault(key, []).extend([piece] * piece.quantity)

    # Plan every sheet, and the faces it needs, before drawing anything.
    jobs: list[RasterJob] = []
    job_index: dict[tuple[str, str], int] = {}

    def need(kind: str, name: str, art: Art, size_of: Piece) -> None:
        if (kind, name) not in job_index:
            label = f"hidden face for {name} cards" if kind == "hidden" else f"{kind} of {name}"
            width_px, height_px = pixel_size(size_of.width, size_of.height, dpi, label)
            job_index[(kind, name)] = len(jobs)
            jobs.append(RasterJob(label, art, size_of.width, size_of.height, width_px, height_px))

    layouts: list[_Layout] = []
    per_sheet = TTS_MAX_COLUMNS * TTS_MAX_ROWS - 1
    for (width_mm, height_mm), copies in groups.items():
        if not copies:
            continue
        size_name = f"{width_mm:.2f}x{height_mm:.2f}mm"
        first = copies[0]
        natural = pixel_size(first.width, first.height, dpi, f"piece {first.id!r}")
        need("hidden", size_name, hidden_art, first)
        for number, start in enumerate(range(0, len(copies), per_sheet), start=1):
            on_sheet = tuple(copies[start:start + per_sheet])
            columns, rows, card_px = _grid(len(on_sheet), *natural)
            layouts.append(_Layout(columns, rows, card_px, on_sheet, size_name, number))
            for piece in on_sheet:
                need("front", piece.id, piece.front, piece)
                if piece.back is not None:
                    need("back", piece.id, piece.back, piece)

    faces = render_jobs(jobs, dpi)

    def face_png(kind: str, name: str) -> bytes:
        return faces[job_index[(kind, name)]]

    sheets: list[TTSSheet] = []
    tasks: list[tuple[str, _Layout, list[bytes | None]]] = []
    for layout in layouts:
        hidden_png = face_png("hidden", layout.size_name)
        stem = f"{layout.size_name}-{layout.number}"
        slots = layout.columns * layout.rows
        fronts: list[bytes | None] = [face_png("front", p.id) for p in layout.pieces]
        fronts += [None] * (slots - 1 - len(fronts)) + [hidden_png]
        tasks.append((f"{stem}.png", layout, fronts))
        back_file = None
        if any(p.back is not None for p in layout.pieces):
            back_file = f"{stem}-back.png"
            backs: list[bytes | None] = [
                face_png("back" if p.back is not None else "front", p.id)
                for p in layout.pieces]
            backs += [None] * (slots - 1 - len(backs)) + [hidden_png]
            tasks.append((back_file, layout, backs))
        sheets.append(TTSSheet(
            file=f"{stem}.png", back_file=back_file, columns=layout.columns,
            rows=layout.rows, card_width_px=layout.card_px[0],
            card_height_px=layout.card_px[1], count=len(layout.pieces),
            hidden_slot=slots - 1,
            slots=tuple(TTSSlot(i, p.id) for i, p in enumerate(layout.pieces))))

    # Composing and compressing a 4096 px sheet takes a second or so: spread the sheets
    # over the CPUs too. The face PNGs are already in memory, so children share them.
    spread(tasks, lambda task: task[1].columns * task[1].rows,
            functools.partial(_compose_chunk, folder=folder, dpi=dpi))

    manifest = TTSManifest(dpi=dpi, sheets=tuple(sheets))
    text = json.dumps(manifest.as_json(), indent=2, sort_keys=True, ensure_ascii=False)
    write_atomic(folder / TTS_MANIFEST, (text + "\n").encode())
    return manifest


def _grid(count: int, width_px: int, height_px: int) -> tuple[int, int, tuple[int, int]]:
    """Choose columns, rows and card size for ``count`` pieces plus the hidden slot.

    Among grids of at most 10 x 7 (and at least 2 rows, which TTS needs) with room for
    ``count + 1`` slots, prefer the one that scales the cards down least, then the one
    with fewest slots (fewer blank cells), then the squarest image, then fewer rows.
    A full sheet (69 pieces) is therefore always 10 x 7.

    Returns:
        Columns, rows, and the card size in pixels after any scaling down.

    """
    best: tuple[tuple[float, ...], tuple[int, int, tuple[int, int]]] | None = None
    for rows in range(TTS_MIN_ROWS, TTS_MAX_ROWS + 1):
        for columns in range(1, TTS_MAX_COLUMNS + 1):
            if columns * rows < count + 1:
                continue
            card = _card_size(columns, rows, width_px, height_px)
            squareness = abs(math.log(columns * card[0] / (rows * card[1])))
            key = (-card[0] * card[1], columns * rows, squareness, rows)
            if best is None or key < best[0]:
                best = (key, (columns, rows, card))
    assert best is not None  # 10 x 7 always fits: count <= 69
    return best[1]


def _card_size(columns: int, rows: int, width_px: int, height_px: int) -> tuple[int, int]:
    """The card size after scaling down so the sheet fits 4096 px on both sides."""
    scale = min(1.0, TTS_MAX_PX / (columns * width_px), TTS_MAX_PX / (rows * height_px))
    if scale >= 1.0:
        return width_px, height_px
    # Floor both sides so the sheet stays within the limit; the aspect changes by less
    # than a pixel.
    card = (math.floor(width_px * scale), math.floor(height_px * scale))
    if min(card) < 1:
        raise RenderError(f"a {width_px} x {height_px} px card cannot fit a TTS sheet")
    return card


def _compose_chunk(tasks: Sequence[tuple[str, _Layout, list[bytes | None]]],
                   folder: Path, dpi: int) -> list[None]:
    for name, layout, cells in tasks:
        write_atomic(folder / name, _compose(layout, cells, dpi))
    return []


def _compose(layout: _Layout, cells: Sequence[bytes | None], dpi: int) -> bytes:
    """Paste the face PNGs into a grid sheet (``None`` cells stay white)."""
    imaging()
    from PIL import Image as PILImage

    card_w, card_h = layout.card_px
    sheet = PILImage.new("RGB", (layout.columns * card_w, layout.rows * card_h), WHITE)
    decoded: dict[bytes, Image] = {}  # the same face appears in many slots
    for slot, png in enumerate(cells):
        if png is None:
            continue
        image = decoded.get(png)
        if image is None:
            image = PILImage.open(io.BytesIO(png)).convert("RGB")
            # Pieces within 0.01 mm of each other share a sheet but may differ by a
            # pixel; scaled-down sheets need every card resized anyway.
            if image.size != (card_w, card_h):
                image = image.resize((card_w, card_h), PILImage.Resampling.LANCZOS)
            decoded[png] = image
        row, column = divmod(slot, layout.columns)
        sheet.paste(image, (column * card_w, row * card_h))
    # Store the effective resolution: a scaled-down sheet has fewer pixels per inch.
    first = layout.pieces[0]
    effective = dpi * card_w / pixel_size(first.width, first.height, dpi, "")[0]
    return png_bytes(sheet, round(effective, 3))
