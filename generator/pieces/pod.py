"""Print-on-demand exports: a deck or a counter set the way card printing services take it.

Such a service wants each card on its own, with bleed: a PDF of one face a page (fronts
and backs alternating, each page the card plus its bleed, its TrimBox the card) and
one image per face at 300 dpi, named for upload (``front-001.png``, ``back-001.png``,
or one ``back.png`` when every card of the set shares its back), with a listing of
how many copies of each to print. Sets are a ruleset's decks (``Piece.deck``) and its
kinds of counters and markers (``Piece.group``); one-sided pieces have no back image.

The faces are the pieces' own art, drawn through the shared rasteriser
(``rasterise.render_jobs``): nothing is drawn twice or differently for a service.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from generator.core.output import write_atomic
from generator.core.safetext import SafeCanvas
from generator.core.units import MM
from generator.pieces.export import distinct_pieces, pixel_size
from generator.pieces.pieces import Art, Piece
from generator.pieces.rasterise import RasterJob, render_jobs

BLEED = 3 * MM
"""What print-on-demand services ask for past the cut, on every side."""
LISTING = "listing.csv"


@dataclass
class PodSet:
    """One deck or counter set as written: its folder, faces and what each card is."""

    name: str
    cards: list[tuple[str, str, int]] = field(default_factory=list)
    """(front image, back image or "", copies) of each card, in order."""


def _bled(art: Art, bleed: float) -> Art:
    """``art`` drawn on a page its bleed larger on every side (origin at the page's corner)."""
    def draw(c: Canvas, width: float, height: float, _: float) -> None:
        c.saveState()
        c.translate(bleed, bleed)
        art(c, width - 2 * bleed, height - 2 * bleed, bleed)
        c.restoreState()
    return draw


def sets_of(pieces: Sequence[Piece]) -> dict[str, list[Piece]]:
    """The pieces by set: each deck, then each kind of counter or marker, in order."""
    out: dict[str, list[Piece]] = {}
    for piece in distinct_pieces(pieces):
        out.setdefault(piece.deck or piece.group or "pieces", []).append(piece)
    return out


def export_pod(pieces: Sequence[Piece], folder: Path, dpi: int = 300,
               bleed: float = BLEED) -> list[PodSet]:
    """Write every set's one-face-a-page PDF, its face images and the listing.

    Args:
        pieces: The kit's pieces (copies counted by their quantity).
        folder: The folder the user named; each set gets a folder of its own in it.
        dpi: Resolution of the images.
        bleed: Added past the cut on every side of every page and image.

    Returns:
        What was written, set by set.

    """
    written: list[PodSet] = []
    rows: list[list[str]] = [["set", "front", "back", "copies", "title", "id"]]
    for name, members in sets_of(pieces).items():
        out = folder / _safe(name)
        out.mkdir(parents=True, exist_ok=True)
        shared = _shared_back(members)
        podset = PodSet(name)
        jobs: list[RasterJob] = []
        paths: list[Path] = []
        pdf = io.BytesIO()
        first = members[0]
        canvas = SafeCanvas(pdf, pagesize=(first.width + 2 * bleed, first.height + 2 * bleed),
                            invariant=1)
        for number, piece in enumerate(members, 1):
            w, h = piece.width + 2 * bleed, piece.height + 2 * bleed
            px = pixel_size(w, h, dpi, f"piece {piece.id!r}")
            front = f"front-{number:03d}.png"
            back = ("back.png" if shared else f"back-{number:03d}.png") if piece.back else ""
            faces = [(front, piece.front)]
            if piece.back is not None and (not shared or number == 1):
                faces.append((back, piece.back))
            for file, art in faces:
                jobs.append(RasterJob(f"{file} of {name}", _bled(art, bleed), w, h, *px))
                paths.append(out / file)
            for side in (piece.front, piece.back):
                if side is None:
                    continue
                canvas.setPageSize((w, h))
                canvas.print_boxes((bleed, bleed, w - bleed, h - bleed), (0.0, 0.0, w, h))
                _bled(side, bleed)(canvas, w, h, bleed)
                canvas.showPage()
            podset.cards.append((front, back, piece.quantity))
            rows.append([name, f"{_safe(name)}/{front}", f"{_safe(name)}/{back}" if back else "",
                         str(piece.quantity), piece.title, piece.id])
        canvas.save()
        render_jobs(jobs, dpi, paths)
        write_atomic(out / "cards.pdf", pdf.getvalue())
        written.append(podset)
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    write_atomic(folder / LISTING, text.getvalue().encode("utf-8"))
    return written


def _shared_back(members: Sequence[Piece]) -> bool:
    """Whether every card of a set has the one same back (a deck's shared back)."""
    backs = {id(p.back) for p in members}
    return len(members) > 1 and len(backs) == 1 and members[0].back is not None


def _safe(name: str) -> str:
    """A set's name as a folder name (pieces' groups and decks are ids already)."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name.lower()) or "pieces"
