"""Counters and markers as pieces: faces from ``faces/counters.yaml`` at the counter size.

The faces are laid out for a 1/2 in counter. Any other size scales every box inside the
safe zone (the 1 mm margin stays 1 mm) and every preferred type size with the counter;
floors stay where they are, so a counter too small for its numbers is caught before
anything is drawn (``fit_problems``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics

from generator.core import fonts
from generator.pages.autofit import LabelFitter, fit_label
from generator.pieces.facedraw import FONTS
from generator.pieces.faces import (
    FaceField,
    FaceLayout,
    face_piece,
    fill_template,
    load_faces,
)
from generator.pieces.pieces import Piece
from generator.rulesets.rule27.model import CounterView
from generator.rulesets.rule27.tables import NavalTables

FOLDER = Path(__file__).parent
FACES = FOLDER / "faces" / "counters.yaml"
FILLS = {"UK": "#c5d0dc", "AU": "#c5d0dc", "IT": "#cfd8b4", "FR": "#d9cfe6", "DE": "#c9c9c9",
         "US": "#d6e4c3", "JP": "#ecd2c4"}
"""Counter ground by navy (any other: the layout's default)."""
BACK_FILLS = {"UK": "#e9eef3", "AU": "#e9eef3", "IT": "#eef2e0"}


@cache
def bundled_faces() -> dict[str, FaceLayout]:
    """The bundled face layouts (read once)."""
    return load_faces(FACES, "rule27/faces/counters.yaml")


def _scale_field(f: FaceField, k: float, safe: float) -> FaceField:
    def at(v: float) -> float:
        return safe + (v - safe) * k

    changes = {"y": at(f.y), "height": f.height * k, "font_size": f.font_size * k,
               "radius": f.radius * k}
    if f.icon != "bar":
        changes.update(x=at(f.x), width=f.width * k)
    if f.icon == "bar" and f.y < safe:  # a bar on the edge stays on the edge
        changes["y"] = f.y
    changes["font_size"] = min(96.0, max(2.0, changes["font_size"]))
    return f.model_copy(update=changes)


def scaled(layout: FaceLayout, size: float, round_: str | None = None) -> FaceLayout:
    """The layout for a square counter ``size`` points wide (and the back's rounding)."""
    base = layout.size[0]
    safe = layout.safe
    k = (size - 2 * safe) / (base - 2 * safe)
    back = layout.back
    if back is not None:
        add = [_scale_field(f, k, safe) for f in back.add]
        update: dict[str, object] = {"add": add}
        if round_ is not None:
            update["round"] = round_
        back = back.model_copy(update=update)
    return layout.model_copy(update={"size": (size, size),
                                     "fields": [_scale_field(f, k, safe) for f in layout.fields],
                                     "back": back})


def layouts(size: float, tables: NavalTables) -> dict[str, FaceLayout]:
    """Every face at the counter size, the half side rounded as the tables say."""
    return {name: scaled(layout, size, tables.half_round)
            for name, layout in bundled_faces().items()}


def _line_height(font: str) -> float:
    fonts.register()
    return float(pdfmetrics.getAscent(font, 1.0) - pdfmetrics.getDescent(font, 1.0))


def fit_problems(layout: FaceLayout, values: Mapping[str, object]) -> list[str]:
    """Texts of the layout that may not be abbreviated and do not fit at their floor."""
    out = []
    merged = {**layout.defaults, **values}
    for f in layout.fields:
        if f.text is None or f.abbreviate:
            continue
        text = fill_template(f.text, merged)  # type: ignore[arg-type]
        font = FONTS[f.font]
        room = f.height / _line_height(font)
        size = min(f.font_size, room)
        if room < f.floor or fit_label(text, font, size, f.width, floor=f.floor,
                                       abbreviate=False).failed:
            out.append(text)
    return out


def _field(layout: FaceLayout, name: str) -> FaceField:
    """The layout's field that prints ``{name}``."""
    return next(f for f in layout.fields if f.text == "{" + name + "}")


def fits(text: str, f: FaceField) -> bool:
    """Whether ``text`` prints whole in the field at its floor size or larger."""
    font = FONTS[f.font]
    room = f.height / _line_height(font)
    size = min(f.font_size, room)
    return room >= f.floor and not fit_label(text, font, size, f.width, floor=f.floor,
                                             abbreviate=False).failed


def _ship_line(name: str, akas: tuple[str, ...], f: FaceField) -> str | None:
    """A ship's name as a counter line: whole, or her class file's short spelling."""
    return next((t for t in (name, *akas) if fits(t, f)), None)


def counter_title(view: CounterView, f: FaceField) -> str:
    """The counter's own name as its first line, never a false one.

    The scenario's ``short`` (which keeps the name's numerals), else the name when it
    fits, else the name with each word that carries no numeral cut to two letters and a
    full stop, from the last word back, until it fits: "9th Squadriglia" prints "9th Sq.".
    """
    if view.short is not None:
        return view.short
    label = view.label
    if len(view.ships) > 1 and label == " / ".join(view.names):
        # Ships without a counter name: the first ship's name and how many more sail
        # with her ("Alpino +3"); every name is on the order of battle beside the number.
        first = _ship_line(view.ships[0].name, view.akas[0] if view.akas else (), f)
        label = f"{first or view.ships[0].name} +{len(view.ships) - 1}"
    words = label.split()
    for i in range(len(words) - 1, -1, -1):
        if fits(" ".join(words), f):
            break
        if not any(c.isdigit() for c in words[i]) and len(words[i]) > 3:
            words[i] = words[i][:2] + "."
    return " ".join(words)


def counter_lines(view: CounterView, layout: FaceLayout) -> tuple[str, str]:
    """The two name lines of a counter.

    One or two ships whose names (or their short spellings) fit at 6 pt print them. A
    flotilla, or ships whose names do not fit, print the counter's own name and its
    number, and the order of battle lists the ships beside that number: a counter never
    prints a name cut to a form no reader could look up.
    """
    first, second = _field(layout, "name1"), _field(layout, "name2")
    ships = list(zip(view.ships, view.akas or [()] * len(view.ships), strict=True))
    # The second line is shorter (the movement rate shares it): try the pair both ways.
    for order in ([ships, ships[::-1]] if len(ships) == 2 else [ships] if ships else []):
        if len(order) > 2:
            break
        lines = [_ship_line(s.name, a, f) for (s, a), f in
                 zip(order, (first, second)[:len(order)], strict=True)]
        if all(line is not None for line in lines):
            return lines[0] or "", (lines[1] or "") if len(lines) == 2 else ""
    if len(ships) == 1:
        # One ship has both lines: her name's words split between them ("Royal" over
        # "Sovereign"), whole and in order.
        words = ships[0][0].name.split()
        for k in range(len(words) - 1, 0, -1):
            top, rest = " ".join(words[:k]), " ".join(words[k:])
            if fits(top, first) and fits(rest, second):
                return top, rest
    return counter_title(view, first), f"No. {view.number}"


def counter_values(view: CounterView, layout: FaceLayout) -> dict[str, object]:
    """What one counter's face shows."""
    first, second = counter_lines(view, layout)
    values: dict[str, object] = {"type": view.type, "name1": first, "name2": second,
                                 "strength": view.strength, "aa": view.aa, "move": view.move}
    if view.category == "CF":
        values.update(open="(", close=")")
    if view.nation in FILLS:
        values["fill"] = FILLS[view.nation]
    if view.half and view.nation in BACK_FILLS:
        values["back_fill"] = BACK_FILLS[view.nation]
    return values


def counter_labels(views: Iterable[CounterView], faces: Mapping[str, FaceLayout]) -> list[str]:
    """Every text the counters' fronts print: the labels the fitter tells apart.

    Give it every side's counters, so a word is cut only where no counter of the kit
    is told apart by it (``LabelFitter``).
    """
    out = []
    for view in views:
        layout = faces["ship-half" if view.half else "ship"]
        values = {**layout.defaults, **counter_values(view, layout)}
        out += [fill_template(f.text, values) for f in layout.fields  # type: ignore[arg-type]
                if f.text is not None]
    return out


def counter_piece(view: CounterView, faces: Mapping[str, FaceLayout], tables: NavalTables,
                  fitter: LabelFitter) -> Piece:
    """One counter line of the order of battle as a piece (``count`` copies)."""
    layout = faces["ship-half" if view.half else "ship"]
    values = counter_values(view, layout)
    if view.half and "back_fill" in values and layout.back is not None:
        layout = layout.model_copy(update={"back": layout.back.model_copy(update={
            "set": {**layout.back.set, "fill": values["back_fill"]}})})
    if view.half and tables.half_aa == "half" and layout.back is not None:
        extra = dict(layout.back.__pydantic_extra__ or {})
        extra["aa"] = ("half", 0)
        back = layout.back.model_copy()
        object.__setattr__(back, "__pydantic_extra__", extra)
        layout = layout.model_copy(update={"back": back})
    title = f"{view.type} {' / '.join(view.names)}"
    return face_piece(layout, values, f"counter.{view.id}", title, view.count,  # type: ignore[arg-type]
                      "half" if view.half else "single", fitter)
