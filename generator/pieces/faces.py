"""Faces: counter, marker and card face layouts as YAML data (Squib-style).

A face layout says what is printed on a piece: its trim size, a background that runs
out into the bleed, a safe zone inside the cut that every label keeps clear of, and a
list of fields: text bound to the piece's values (``{name}``, ``{attack}-{defence}``),
value boxes (text on a filled or outlined box) and icons from a fixed vocabulary. A
back can be *derived* from the front: the same layout drawn again with some numeric
values changed (``strength: half``), other values or colours set, and a few fields
added (a reduced-strength stripe).

``face_piece`` turns a layout and one piece's values into a ``Piece``, so faces go
through the imposition engine, the PNG export and the Tabletop Simulator export like
any other piece. Faces are drawn un-mirrored: for duplex printing the imposition
engine mirrors where a back goes, never what it shows.

Lengths are unit strings parsed by the sprue's length parser; positions are measured
from the trim's top-left corner, as a designer measures a counter. Labels are fitted by
``autofit``'s one rule. Problems in a layout are located ``file:line:column: path:
found X, expected Y``: a field past the trim or the safe zone, an unknown value name
(with a did-you-mean), an unknown icon, a bad length.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    create_model,
    model_validator,
)

from generator.core.errors import DataError, Problem, RenderError
from generator.core.suggest import did_you_mean
from generator.core.units import MM, parse_length
from generator.data.validation import describe, validate
from generator.data.yamlsource import Loc, SourceDoc, dotted, load_yaml
from generator.pages.autofit import LABEL_FLOOR, LabelFitter
from generator.pieces.facedraw import (
    FONTS,
    REF,
    PlacedText,
    box,
    colour,
    draw_icon,
    line_height,
    place_text,
)
from generator.pieces.pieces import Art, Piece
from generator.pieces.sprue import length_between

if TYPE_CHECKING:  # faces are checked without ReportLab (odds need the tables, not ink)
    from reportlab.lib.colors import Color
    from reportlab.pdfgen.canvas import Canvas

ICONS = ("bar", "circle", "flame", "rectangle", "star", "triangle")
"""The icon vocabulary (fixed: a layout names one of these, nothing else is drawn)."""
RESERVED = ("from", "round", "set", "add")
"""Keys of a derived back; no value may be named like one."""
MAX_TEXT = 10_000
"""Longest text value a piece may bind (the fit rule copes; a bound keeps memory sane)."""
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_TOKEN = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
_SIZE = re.compile(r"^\s*(\S+)\s*x\s*(\S+)\s*$")

ValueKind = Literal["number", "text", "colour"]


def _value(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError("expected a whole number or text")
    return value


Value = Annotated[int | str, BeforeValidator(_value)]


# -- value types -----------------------------------------------------------------------


def size_between(low_mm: float, high_mm: float,
                 example: str = "15mm x 15mm") -> BeforeValidator:
    """A validator turning ``"15mm x 15mm"`` into (width, height) points, each side bounded."""

    def convert(value: object) -> tuple[float, float]:
        match = _SIZE.match(value) if isinstance(value, str) else None
        if match is None:
            raise ValueError(f"expected a size such as '{example}'")
        try:
            width, height = parse_length(match.group(1)), parse_length(match.group(2))
        except ValueError:
            raise ValueError(f"expected a size such as '{example}'") from None
        if not all(low_mm * MM - 1e-9 <= side <= high_mm * MM + 1e-9 for side in (width, height)):
            raise ValueError(f"expected each side from {low_mm:g}mm to {high_mm:g}mm")
        return width, height

    return BeforeValidator(convert)


def _type_size(value: object) -> float:
    """A type size: ``"8pt"``, any length, or a bare number of points (2 pt to 96 pt)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError("expected a type size such as '8pt'")
    try:
        points = parse_length(value)
    except ValueError:
        raise ValueError("expected a type size such as '8pt'") from None
    if not 2 <= points <= 96:
        raise ValueError("expected a type size from 2pt to 96pt")
    return points


def _colour_ref(value: object) -> str:
    if not isinstance(value, str) or not (_HEX.match(value) or REF.match(value)):
        raise ValueError("expected a colour '#rrggbb' or a colour value such as '{fill}'")
    return value


def _transform(value: object) -> tuple[str, int]:
    """A derived back's change to a number: ``half``, ``{minus: N}`` or ``{plus: N}``."""
    expected = "expected half, {minus: N} or {plus: N}"
    if value == "half":
        return ("half", 0)
    if isinstance(value, str):
        raise ValueError(expected + did_you_mean(value, ["half"]))
    if isinstance(value, dict) and len(value) == 1:
        (op, amount), = value.items()
        if op in ("minus", "plus") and isinstance(amount, int) and not isinstance(amount, bool) \
                and 0 <= amount <= 1000:
            return (str(op), amount)
    raise ValueError(expected + " (N a whole number from 0 to 1000)")


Length = Annotated[float, length_between(0, 500)]
TypeSize = Annotated[float, BeforeValidator(_type_size)]
ColourRef = Annotated[str, BeforeValidator(_colour_ref)]
Transform = Annotated[tuple[str, int], BeforeValidator(_transform)]


class _Strict(BaseModel):
    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)


class FaceField(_Strict):
    """One thing on a face: a text (a value box when it has a fill or stroke) or an icon.

    The box is ``x``, ``y`` (from the trim's top-left corner), ``width`` and ``height``.
    """

    text: str | None = Field(None, max_length=200,
                             description="Text with {value} placeholders ({{ for a brace).")
    icon: Literal["bar", "circle", "flame", "rectangle", "star", "triangle"] | None = Field(
        None, description="An icon from the fixed vocabulary.")
    x: Length = Field(0.0, description="Left edge of the box, from the trim's left edge.")
    y: Length = Field(0.0, description="Top edge of the box, from the trim's top edge.")
    width: Length = Field(0.0, description="Box width (a bar always spans the piece).")
    height: Length = Field(description="Box height.")
    font: Literal["regular", "bold", "narrow", "narrow-bold"] = Field(
        "regular", description="Type face.")
    font_size: TypeSize = Field(8.0, description="Preferred type size, e.g. '8pt'.")
    floor: TypeSize = Field(LABEL_FLOOR, description="Smallest size the text shrinks to.")
    abbreviate: bool = Field(True, description="May the text be abbreviated to fit?")
    colour: ColourRef = Field("#000000", description="Text or icon colour.")
    align: Literal["left", "center", "right"] = Field("center", description="Across the box.")
    valign: Literal["top", "middle", "bottom"] = Field("middle", description="Up and down.")
    fill: ColourRef | None = Field(None, description="Box ground behind a text.")
    stroke: ColourRef | None = Field(None, description="Outline colour.")
    line_width: Annotated[float, length_between(0, 3)] = Field(
        0.5, description="Outline width (0.5pt unless given).")
    radius: Annotated[float, length_between(0, 20)] = Field(
        0.0, description="Corner radius of a box or rectangle.")
    points: Literal["up", "down", "left", "right"] = Field(
        "up", description="Where a triangle points.")

    @model_validator(mode="after")
    def _one_kind(self) -> FaceField:
        if (self.text is None) == (self.icon is None):
            raise ValueError("expected exactly one of text or icon")
        return self


class DerivedBack(BaseModel):
    """A back drawn from the front: values changed or set, fields added.

    Keys other than ``from``, ``round``, ``set`` and ``add`` name number values and say
    how the back changes them (``strength: half``, ``attack: {minus: 1}``).
    """

    model_config = ConfigDict(defer_build=True, extra="allow", frozen=True, populate_by_name=True)
    __pydantic_extra__: dict[str, Transform] = Field(init=False)

    from_: Literal["front"] = Field(alias="from", description="Always 'front'.")
    round: Literal["down", "up", "nearest"] = Field(
        "down", description="How halves are rounded (nearest: halves up).")
    set: dict[str, Value] = Field(default_factory=dict, max_length=40,
                                  description="Values (and colour values) set on the back.")
    add: list[FaceField] = Field(default_factory=list, max_length=20,
                                 description="Fields drawn on the back only.")

    @property
    def changes(self) -> dict[str, tuple[str, int]]:
        """Number value name to its change."""
        return dict(self.__pydantic_extra__ or {})


class FaceLayout(_Strict):
    """One face layout: size, ground, safe zone, values, fields and an optional back."""

    size: Annotated[tuple[float, float], size_between(3, 300)] = Field(
        description="Trim size, e.g. '15mm x 15mm'.")
    background: ColourRef = Field("#ffffff", description="Ground colour, run into the bleed.")
    safe: Annotated[float, length_between(0, 10)] = Field(
        1.0 * MM, description="How far every label keeps inside the cut line.")
    values: dict[str, Literal["number", "text", "colour"]] = Field(
        default_factory=dict, max_length=40, description="The values a piece binds, by kind.")
    defaults: dict[str, Value] = Field(
        default_factory=dict, max_length=40,
        description="Values used when a piece does not give its own.")
    fields: list[FaceField] = Field(default_factory=list, max_length=60,
                                    description="What is drawn, in order (later on top).")
    back: DerivedBack | None = Field(None, description="A back derived from the front.")
    ends: Literal["x", "y"] | None = Field(
        None, description="The axis along which the piece has distinct ends (a bow and a "
        "stern): its back is drawn so that, after the flip, each end backs itself.")


# -- checks ----------------------------------------------------------------------------


def template_names(template: str) -> list[str] | str:
    """The value names a text uses, or a problem ``found ..., expected ...``."""
    names: list[str] = []
    for match in _TOKEN.finditer(template):
        token = match.group(0)
        if token in ("{{", "}}"):
            continue
        inner = match.group(1)
        if inner is None:
            return f"found a lone '{token}', expected {{{{ or }}}} for a brace"
        if not _NAME.match(inner):
            return (f"found '{{{inner}}}', expected a value name in braces such as {{name}} "
                    "(no expressions, attributes or formats)")
        names.append(inner)
    return names


def fill_template(template: str, values: Mapping[str, Value]) -> str:
    """The text with each ``{name}`` replaced by its value; nothing else is evaluated."""

    def one(match: re.Match[str]) -> str:
        token = match.group(0)
        if token in ("{{", "}}"):
            return token[0]
        return str(values[match.group(1)])

    return _TOKEN.sub(one, template)


def _unknown(name: str, values: Mapping[str, str]) -> str:
    if not values:
        return f"found unknown value '{name}', expected none (the layout declares no values)"
    return (f"found unknown value '{name}', expected one of {', '.join(values)}"
            f"{did_you_mean(name, values)}")


def _field_problems(f: FaceField, loc: Loc, layout: FaceLayout) -> list[tuple[Loc, str]]:
    out: list[tuple[Loc, str]] = []
    values = layout.values
    if f.text is not None:
        names = template_names(f.text)
        if isinstance(names, str):
            out.append(((*loc, "text"), names))
        else:
            out.extend(((*loc, "text"), _unknown(n, values)) for n in names if n not in values)
    for key in ("colour", "fill", "stroke"):
        ref = getattr(f, key)
        out.extend(_colour_problems(ref, (*loc, key), values))
    width, height = layout.size
    edges = [("y", "height", f.y, f.height, height)]
    if f.icon != "bar":  # a bar always spans the piece: its x and width are not used
        edges.insert(0, ("x", "width", f.x, f.width, width))
    inset, what = (layout.safe, f"the trim less the {layout.safe / MM:.2f}mm safe zone") \
        if f.text is not None else (0.0, "the trim")
    for start, span, at, extent, trim in edges:
        if at < inset - 1e-9:
            out.append(((*loc, start), f"found {at / MM:.2f}mm, expected at least "
                                       f"{inset / MM:.2f}mm (the safe zone inside the cut)"))
        elif at + extent > trim - inset + 1e-9:
            out.append(((*loc, span), f"found {start} + {span} = {(at + extent) / MM:.2f}mm, "
                                      f"expected at most {(trim - inset) / MM:.2f}mm ({what})"))
        if extent <= 0:
            out.append(((*loc, span), f"found {extent / MM:.2f}mm, expected more than 0mm"))
    if f.text is not None:
        if f.floor > f.font_size:
            out.append(((*loc, "floor"), f"found {f.floor:g}pt, expected at most the "
                                         f"font_size {f.font_size:g}pt"))
        need = f.floor * line_height(FONTS[f.font])
        if 0 < f.height < need - 1e-9:
            out.append(((*loc, "height"), f"found {f.height / MM:.2f}mm, expected at least "
                                          f"{need / MM:.2f}mm (one line at the {f.floor:g}pt "
                                          "floor)"))
    return out


def _colour_problems(ref: str | None, loc: Loc, values: Mapping[str, str]) -> list[tuple[Loc, str]]:
    match = REF.match(ref) if ref else None
    if match is None:
        return []
    name = match.group(1)
    if name not in values:
        return [(loc, _unknown(name, values))]
    if values[name] != "colour":
        return [(loc, f"found '{ref}' (a {values[name]} value), expected a colour value "
                      "or '#rrggbb'")]
    return []


def layout_problems(layout: FaceLayout) -> list[tuple[Loc, str]]:
    """What is wrong with a layout beyond its types, each with its path inside the layout."""
    out: list[tuple[Loc, str]] = []
    for name in layout.values:
        if not _NAME.match(name) or name in RESERVED:
            out.append((("values", name), f"found '{name}', expected a value name of lowercase "
                                          "letters, digits and _ (not from, round, set or add)"))
    for name, value in layout.defaults.items():
        kind = layout.values.get(name)
        if kind is None:
            out.append((("defaults", name), _unknown(name, layout.values)))
        elif problem := _kind_problem(kind, value):
            out.append((("defaults", name), problem))
    out.extend(_colour_problems(layout.background, ("background",), layout.values))
    for i, f in enumerate(layout.fields):
        out.extend(_field_problems(f, ("fields", i), layout))
    back = layout.back
    if back is not None:
        for name in back.changes:
            kind = layout.values.get(name)
            if kind is None:
                out.append((("back", name), _unknown(name, layout.values)))
            elif kind != "number":
                out.append((("back", name), f"found '{name}' (a {kind} value), expected a "
                                            "number value to change"))
        for name, value in back.set.items():
            kind = layout.values.get(name)
            if kind is None:
                out.append((("back", "set", name), _unknown(name, layout.values)))
            elif problem := _kind_problem(kind, value):
                out.append((("back", "set", name), problem))
        for i, f in enumerate(back.add):
            out.extend(_field_problems(f, ("back", "add", i), layout))
    return out


def _kind_problem(kind: str, value: object) -> str:
    """'' when ``value`` suits a value of ``kind``, else ``found ..., expected ...``."""
    if kind == "number":
        ok = isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 10**6
        return "" if ok else f"found {describe(value)}, expected a whole number"
    if kind == "colour":
        ok = isinstance(value, str) and bool(_HEX.match(value))
        return "" if ok else f"found {describe(value)}, expected a colour '#rrggbb'"
    ok = isinstance(value, str | int) and not isinstance(value, bool) \
        and len(str(value)) <= MAX_TEXT
    return "" if ok else f"found {describe(value)}, expected text of at most {MAX_TEXT} characters"


def _coarse(faces: dict[str, FaceLayout]) -> dict[str, FaceLayout]:
    """Refuse faces with problems when no source positions are at hand (the first one)."""
    for name, layout in faces.items():
        problems = layout_problems(layout)
        if problems:
            loc, message = problems[0]
            raise ValueError(f"expected a valid face layout; {dotted((name, *loc))}: {message}")
    return faces


def _coarse_one(layout: FaceLayout) -> FaceLayout:
    problems = layout_problems(layout)
    if problems:
        loc, message = problems[0]
        raise ValueError(f"expected a valid face layout; {dotted(loc)}: {message}")
    return layout


Face = Annotated[FaceLayout, AfterValidator(_coarse_one)]
"""One face layout, for a field of a tables model (see ``Faces``)."""
Faces = Annotated[dict[str, FaceLayout], AfterValidator(_coarse)]
"""A mapping of face layouts, for a field of a tables model.

Checked completely when validated; ``faces_precheck`` gives the same problems located
at their own line and column (use it as ``load_model``'s precheck).
"""


def check_faces(doc: SourceDoc, key: str) -> list[Problem]:
    """Every problem of the face layouts under top-level ``key`` of ``doc``, located.

    Args:
        doc: A loaded YAML document.
        key: The top-level key holding a mapping of face names to layouts.

    Returns:
        The problems (types first; the layout checks once the types are right).

    """
    data = doc.data if isinstance(doc.data, dict) else {}
    if key not in data:
        return []
    model: type[BaseModel] = create_model(  # type: ignore[call-overload]
        "FacesAt", __config__=ConfigDict(extra="ignore"), **{key: (dict[str, FaceLayout], ...)})
    parsed, problems = validate(model, doc, {key: data[key]})
    if problems or parsed is None:
        return problems
    layouts: dict[str, FaceLayout] = getattr(parsed, key)
    return [doc.problem((key, name, *loc), message)
            for name, layout in layouts.items() for loc, message in layout_problems(layout)]


def faces_precheck(key: str) -> Callable[[SourceDoc], list[Problem]]:
    """A ``load_model`` precheck locating every face-layout problem under ``key``."""
    return lambda doc: check_faces(doc, key)


class FacesFile(_Strict):
    """A file of face layouts."""

    kind: Literal["faces"] = Field(description="Always 'faces'.")
    faces: dict[str, FaceLayout] = Field(max_length=200, description="Layouts by name.")


def load_faces(path: Path, display: str | None = None) -> dict[str, FaceLayout]:
    """Load a faces file (``kind: faces`` and ``faces:``, a mapping of layouts).

    Raises:
        DataError: With every problem, located.

    """
    doc, problems = load_yaml(path, display)
    if not problems:
        problems = check_faces(doc, "faces")
    if not problems:
        parsed, problems = validate(FacesFile, doc)
        if parsed is not None and not problems:
            return parsed.faces
    raise DataError(problems)


# -- values ----------------------------------------------------------------------------


def derived_values(layout: FaceLayout, values: Mapping[str, Value]) -> dict[str, Value]:
    """The values the derived back is drawn with.

    Halving rounds as the back says (down, up, or nearest with halves up); ``minus``
    stops at 0; ``set`` is applied last.
    """
    back = layout.back
    out = dict(values)
    if back is None:
        return out
    for name, (op, amount) in back.changes.items():
        number = int(out[name])
        if op == "half":
            half = Fraction(number, 2)
            rounded = {"down": math.floor(half), "up": math.ceil(half),
                       "nearest": math.floor(half + Fraction(1, 2))}[back.round]
            out[name] = rounded
        elif op == "minus":
            out[name] = max(0, number - amount)
        else:
            out[name] = number + amount
    out.update(back.set)
    return out


def check_values(layout: FaceLayout, values: Mapping[str, Value], piece_id: str) -> None:
    """Make sure a piece binds every value its layout declares, each of the right kind.

    Raises:
        RenderError: Naming the piece and the value (the ruleset passed the wrong values).

    """
    for name, kind in layout.values.items():
        if name not in values:
            raise RenderError(f"piece {piece_id}: the face needs the value '{name}'"
                              f"{did_you_mean(name, list(values))}")
        problem = _kind_problem(kind, values[name])
        if problem:
            raise RenderError(f"piece {piece_id}: value '{name}': {problem}")


# -- drawing ---------------------------------------------------------------------------


def face_art(layout: FaceLayout, values: Mapping[str, Value], piece_id: str,
             fitter: LabelFitter, extra: Sequence[FaceField] = ()) -> Art:
    """The drawing of one face; its labels are fitted now, so problems show before drawing.

    Args:
        layout: The layout.
        values: The piece's values (checked with ``check_values`` first).
        piece_id: Names the piece in fit warnings.
        fitter: Fits the labels and collects the warnings.
        extra: Fields drawn after the layout's own (a derived back's ``add``).

    Returns:
        ``art(canvas, width, height, bleed)`` as ``Piece`` expects.

    """
    height = layout.size[1]
    ground = colour(layout.background, values)
    ops: list[Callable[[Canvas, float, float, float], None]] = []
    for f in (*layout.fields, *extra):
        if f.icon is not None:
            def icon_op(c: Canvas, w: float, h: float, bleed: float, f: FaceField = f) -> None:
                draw_icon(c, f, values, w, h, bleed)

            ops.append(icon_op)
            continue
        placed = place_text(f, fill_template(str(f.text), values), piece_id, height, fitter)
        fill = colour(f.fill, values) if f.fill else None
        stroke = colour(f.stroke, values) if f.stroke else None
        ink = colour(f.colour, values)

        def text_op(c: Canvas, w: float, h: float, bleed: float, f: FaceField = f,
                    placed: PlacedText = placed, fill: Color | None = fill,
                    stroke: Color | None = stroke, ink: Color = ink) -> None:
            if fill is not None or stroke is not None:
                if fill is not None:
                    c.setFillColor(fill)
                if stroke is not None:
                    c.setStrokeColor(stroke)
                    c.setLineWidth(f.line_width)
                inset = f.line_width / 2 if stroke is not None else 0.0
                box(c, f.x + inset, h - f.y - f.height + inset, f.width - 2 * inset,
                     f.height - 2 * inset, f.radius, stroke is not None, fill is not None)
            c.setFillColor(ink)
            placed.fitted.draw(c, placed.x, placed.baseline, placed.align)

        ops.append(text_op)

    def art(c: Canvas, w: float, h: float, bleed: float) -> None:
        c.setFillColor(ground)
        c.rect(-bleed, -bleed, w + 2 * bleed, h + 2 * bleed, stroke=0, fill=1)
        for op in ops:
            op(c, w, h, bleed)

    return art


def face_piece(layout: FaceLayout, values: Mapping[str, Value], piece_id: str, title: str,
               quantity: int = 1, group: str = "", fitter: LabelFitter | None = None) -> Piece:
    """A piece drawn from a face layout and one piece's values.

    Args:
        layout: The face layout (its ``back``, if any, becomes the piece's back).
        values: Every value the layout declares and has no default for.
        piece_id: The piece's id.
        title: What a person calls it.
        quantity: Copies to print.
        group: The sheet region it goes in.
        fitter: Shared label fitter (collects warnings across pieces); a fresh one if None.

    Returns:
        The piece; ``Piece.warnings`` holds its fit warnings, each naming it.

    Raises:
        RenderError: A declared value is missing or of the wrong kind.

    """
    fitter = fitter if fitter is not None else LabelFitter()
    values = {**layout.defaults, **values}
    check_values(layout, values, piece_id)
    front = face_art(layout, values, piece_id, fitter)
    back = None
    if layout.back is not None:
        back = face_art(layout, derived_values(layout, values), piece_id, fitter,
                        layout.back.add)
    width, height = layout.size
    return Piece(piece_id, title, width, height, front, back, quantity, group,
                 fitter.of([piece_id]), ends=layout.ends)
