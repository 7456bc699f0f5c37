"""What a PDF page paints, read from its content stream: the walker under ``preflight``.

A print shop's preflight asks of every mark on a page what it is (text, a stroked line,
an image, a shading), in which colour and colour space, and how large it lands on the
paper. ``paints(page)`` answers by interpreting the page's operators the way a renderer
does, without drawing: it keeps the graphics state (``q``/``Q``, the current
transformation matrix ``cm``, the line width ``w`` and ``gs``, the fill and stroke
colours ``g rg k cs sc scn`` and their uppercase twins, the text rendering mode ``Tr``)
and follows ``Do`` into form XObjects with their ``/Matrix`` and resources, so a line
drawn at 0.5 pt inside a form scaled by a half is seen as the 0.25 pt line it prints.

Annotation appearances and Type3 glyph procedures are not walked: quarterdeck writes
neither, and a print shop's RIP prints neither as page content by default.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Literal

import pikepdf

__all__ = ["Colour", "Mark", "Matrix", "inherited", "paints", "resource_of"]

Matrix = tuple[float, float, float, float, float, float]
"""A PDF matrix ``[a b c d e f]``: a point (x, y) maps to (a x + c y + e, b x + d y + f)."""

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)

MAX_DEPTH = 12
"""Forms nested deeper than this are not followed (a form that draws itself would loop)."""

_DEVICE = {"/DeviceGray": 1, "/DeviceRGB": 3, "/DeviceCMYK": 4,
           "/G": 1, "/RGB": 3, "/CMYK": 4}
"""Device colour spaces (with the inline-image abbreviations) and their component counts."""

_FAMILY = {"/G": "DeviceGray", "/RGB": "DeviceRGB", "/CMYK": "DeviceCMYK"}


def times(first: Matrix, then: Matrix) -> Matrix:
    """The matrix that applies ``first`` and then ``then`` (PDF's ``first × then``)."""
    a, b, c, d, e, f = first
    a2, b2, c2, d2, e2, f2 = then
    return (a * a2 + b * c2, a * b2 + b * d2,
            c * a2 + d * c2, c * b2 + d * d2,
            e * a2 + f * c2 + e2, e * b2 + f * d2 + f2)


def thinnest(matrix: Matrix) -> float:
    """How much ``matrix`` shrinks a length in the direction it shrinks most.

    The smaller singular value of the linear part: a stroke of width w may print as thin
    as ``w * thinnest(ctm)`` where the matrix squeezes it across.
    """
    a, b, c, d, _, _ = matrix
    # Singular values of [[a b] [c d]]: sqrt of the eigenvalues of its Gram matrix.
    s = a * a + b * b + c * c + d * d
    det = a * d - b * c
    root = math.sqrt(max(s * s - 4 * det * det, 0.0))
    return math.sqrt(max((s - root) / 2, 0.0))


@dataclass(frozen=True)
class Colour:
    """A colour as set in the content: its space's family, component count and values."""

    family: str
    """``DeviceGray``, ``DeviceRGB``, ``DeviceCMYK``, ``ICCBased``, ``Separation``..."""
    components: int
    """How many components the space has (an ICC profile's N; 0 for a pattern)."""
    values: tuple[float, ...] = ()
    name: str = ""
    """How the colour-space report names the space: ``ICCBased (CMYK)``, ``Separation All``."""

    @property
    def label(self) -> str:
        """The colour space as reported (``name``, or the family)."""
        return self.name or self.family


BLACK_GRAY = Colour("DeviceGray", 1, (0.0,), "DeviceGray")
"""The initial fill and stroke colour of every page and form."""


@dataclass(frozen=True)
class Mark:
    """One thing a page paints, as preflight sees it."""

    kind: Literal["text", "stroke", "image", "shading"]
    colour: Colour | None
    """Fill colour of text, stroke colour of a line; an image's space (values empty)."""
    width: float = 0.0
    """A stroke's (or stroked text's) width on paper in points: the thinnest it prints."""
    ppi: float = 0.0
    """An image's effective resolution on paper: pixels per inch, the lower of its two."""
    name: str = ""
    """The XObject name an image was drawn by (``Im0``), or ``inline``."""
    pixels: tuple[int, int] = (0, 0)


@dataclass
class _State:
    """The part of the graphics state preflight needs (copied by ``q``)."""

    ctm: Matrix = IDENTITY
    line_width: float = 1.0
    fill: Colour = BLACK_GRAY
    stroke: Colour = BLACK_GRAY
    render_mode: int = 0


@dataclass
class _Walk:
    """One page's walk: the marks found so far and the forms on the way down."""

    marks: list[Mark] = field(default_factory=list)
    path: list[tuple[int, int]] = field(default_factory=list)


def resource_of(resources: Any, kind: str, name: str) -> Any:
    """``resources[kind][name]`` or None: a missing dictionary is not an error here."""
    if not isinstance(resources, pikepdf.Dictionary):
        return None
    group = resources.get(kind)
    if not isinstance(group, pikepdf.Dictionary):
        return None
    return group.get(name)


def colour_space(spec: Any, resources: Any) -> Colour:
    """The colour space a ``cs``/``CS`` operand or an image's ``/ColorSpace`` names."""
    if isinstance(spec, pikepdf.Name):
        key = str(spec)
        if key in _DEVICE:
            family = _FAMILY.get(key, key[1:])
            return Colour(family, _DEVICE[key], name=family)
        if key == "/Pattern":
            return Colour("Pattern", 0, name="Pattern")
        found = resource_of(resources, "/ColorSpace", key)
        if found is None:
            return Colour("unknown", 0, name=f"undefined {key[1:]}")
        return colour_space(found, None)
    if isinstance(spec, pikepdf.Array) and len(spec) > 0:
        family = str(spec[0])[1:]
        if family == "ICCBased" and len(spec) > 1:
            n = int(spec[1].get("/N", 0)) if isinstance(spec[1], pikepdf.Stream) else 0
            kind = {1: "Gray", 3: "RGB", 4: "CMYK"}.get(n, f"{n} components")
            return Colour("ICCBased", n, name=f"ICCBased ({kind})")
        if family == "Separation" and len(spec) > 1:
            return Colour("Separation", 1, name=f"Separation {str(spec[1])[1:]}")
        if family == "DeviceN" and len(spec) > 1 and isinstance(spec[1], pikepdf.Array):
            return Colour("DeviceN", len(spec[1]), name=f"DeviceN ({len(spec[1])} inks)")
        if family == "Indexed" and len(spec) > 1:
            base = colour_space(spec[1], resources)
            return Colour("Indexed", 1, name=f"Indexed {base.label}")
        if family == "Pattern":
            return Colour("Pattern", 0, name="Pattern")
        counts = {"CalGray": 1, "CalRGB": 3, "Lab": 3}
        return Colour(family, counts.get(family, 0), name=family)
    return Colour("unknown", 0, name="unknown")


def _numbers(operands: list[Any]) -> tuple[float, ...]:
    """The numeric operands (a pattern name after ``scn`` is left out)."""
    return tuple(float(v) for v in operands if isinstance(v, int | float | Decimal))


def paints(page: pikepdf.Page) -> list[Mark]:
    """Everything the page paints, in content order (forms followed, see the module)."""
    walk = _Walk()
    resources = inherited(page.obj, "/Resources")
    _run(page.obj, resources, _State(), walk, depth=0)
    return walk.marks


def inherited(page: Any, key: str) -> Any:
    """A page attribute that may be set on an ancestor in the page tree (``/Resources``)."""
    node, seen = page, 0
    while isinstance(node, pikepdf.Dictionary) and seen < 64:
        if key in node:
            return node[key]
        node, seen = node.get("/Parent"), seen + 1
    return None


def _instructions(source: Any) -> Iterator[tuple[list[Any], str]]:
    """The operators of a page or form, with their operands (inline images included)."""
    for item in pikepdf.parse_content_stream(source):
        yield list(item.operands), str(item.operator)


def _run(source: Any, resources: Any, state: _State, walk: _Walk, *, depth: int) -> None:
    """Interpret one content stream (a page's or a form's) from ``state``."""
    stack: list[_State] = []
    for operands, op in _instructions(source):
        try:
            state = _step(op, operands, resources, state, stack, walk, depth=depth)
        except (TypeError, ValueError, IndexError):
            # An operator with operands of the wrong kind (``(a) w``, ``/X 1 2 cm``): a
            # renderer skips it, and so does the walk.
            continue


def _step(op: str, operands: list[Any], resources: Any, state: _State,
          stack: list[_State], walk: _Walk, *, depth: int) -> _State:
    """Apply one operator; the state after it (``Q`` brings back an earlier one)."""
    if op == "q":
        stack.append(replace(state))
    elif op == "Q":
        if stack:
            state = stack.pop()
    elif op == "cm" and len(operands) == 6:
        state.ctm = times(_matrix(operands), state.ctm)
    elif op == "w" and operands:
        state.line_width = float(operands[0])
    elif op == "gs" and operands:
        _extgstate(resource_of(resources, "/ExtGState", str(operands[0])), state)
    elif op == "Tr" and operands:
        state.render_mode = int(operands[0])
    elif op in _COLOUR_OPS:
        _set_colour(op, operands, resources, state)
    elif op in ("Tj", "TJ", "'", '"'):
        _text(state, walk)
    elif op in ("S", "s", "B", "B*", "b", "b*"):
        walk.marks.append(Mark("stroke", state.stroke,
                               width=state.line_width * thinnest(state.ctm)))
    elif op == "sh" and operands:
        shading = resource_of(resources, "/Shading", str(operands[0]))
        if isinstance(shading, pikepdf.Dictionary | pikepdf.Stream) and "/ColorSpace" in shading:
            walk.marks.append(Mark("shading", colour_space(shading.ColorSpace, resources)))
    elif op == "Do" and operands:
        _do(str(operands[0]), resources, state, walk, depth=depth)
    elif op == "INLINE IMAGE" and operands:
        _image(operands[0].obj, resources, state, walk, "inline")
    return state


_COLOUR_OPS = frozenset(("g", "G", "rg", "RG", "k", "K", "cs", "CS", "sc", "SC", "scn", "SCN"))


def _matrix(values: Any) -> Matrix:
    """Six numbers as a matrix (operands of ``cm`` or a form's ``/Matrix``)."""
    a, b, c, d, e, f = (float(v) for v in values)
    return (a, b, c, d, e, f)


def _extgstate(gstate: Any, state: _State) -> None:
    """What a ``gs`` sets that preflight needs: the line width (``/LW``)."""
    if isinstance(gstate, pikepdf.Dictionary) and "/LW" in gstate:
        state.line_width = float(gstate.LW)


def _set_colour(op: str, operands: list[Any], resources: Any, state: _State) -> None:
    """Apply a colour operator to the fill (lowercase) or stroke (uppercase) colour."""
    stroke = op[0].isupper()
    current = state.stroke if stroke else state.fill
    lowered = op.lower()
    if lowered in ("g", "rg", "k"):
        family = {"g": "DeviceGray", "rg": "DeviceRGB", "k": "DeviceCMYK"}[lowered]
        colour = Colour(family, _DEVICE["/" + family], _numbers(operands), family)
    elif lowered == "cs" and operands:
        space = colour_space(operands[0], resources)
        initial = (0.0, 0.0, 0.0, 1.0) if space.components == 4 else (0.0,) * space.components
        colour = replace(space, values=initial)
    else:  # sc / scn: new values in the current space
        colour = replace(current, values=_numbers(operands))
    if stroke:
        state.stroke = colour
    else:
        state.fill = colour


def _text(state: _State, walk: _Walk) -> None:
    """Text shown in the current rendering mode: filled, stroked, both or neither."""
    mode = state.render_mode
    if mode in (0, 2, 4, 6):
        walk.marks.append(Mark("text", state.fill))
    if mode in (1, 2, 5, 6):
        walk.marks.append(Mark("text", state.stroke,
                               width=state.line_width * thinnest(state.ctm)))


def _do(name: str, resources: Any, state: _State, walk: _Walk, *, depth: int) -> None:
    """Draw an XObject: an image is measured, a form is walked with its matrix."""
    xobject = resource_of(resources, "/XObject", name)
    if not isinstance(xobject, pikepdf.Stream):
        return
    subtype = str(xobject.get("/Subtype", ""))
    if subtype == "/Image":
        _image(xobject, resources, state, walk, name[1:])
    elif subtype == "/Form" and depth < MAX_DEPTH:
        key = xobject.objgen
        if key in walk.path:  # a form that draws itself, directly or through others
            return
        walk.path.append(key)
        inner = replace(state, ctm=times(_matrix(xobject.get("/Matrix", IDENTITY)), state.ctm))
        form_resources = xobject.get("/Resources", resources)
        _run(xobject, form_resources, inner, walk, depth=depth + 1)
        walk.path.pop()


def _image(image: Any, resources: Any, state: _State, walk: _Walk, name: str) -> None:
    """An image placed by the current matrix: its pixels per inch on paper."""
    width = int(image.get("/Width", image.get("/W", 0)))
    height = int(image.get("/Height", image.get("/H", 0)))
    a, b, c, d, _, _ = state.ctm
    # The image's unit square maps onto the page by the CTM: its sides are (a, b) and
    # (c, d) in points, so pixels across a side over that side's length in inches.
    across, up = math.hypot(a, b) / 72, math.hypot(c, d) / 72
    ppi = min(width / across if across else math.inf, height / up if up else math.inf)
    mask = bool(image.get("/ImageMask", image.get("/IM", False)))
    spec = image.get("/ColorSpace", image.get("/CS"))
    colour = state.fill if mask or spec is None else colour_space(spec, resources)
    walk.marks.append(Mark("image", colour, ppi=ppi, name=name, pixels=(width, height)))
