"""VASSAL's piece encodings: traits and AddPiece commands, written the way VASSAL writes them.

A VASSAL piece is a list of traits, outermost first, ending in a ``BasicPiece``. Each trait
has a type (its definition) and a state; VASSAL joins the types with tabs, the states with
tabs, and wraps both in an AddPiece command (``+/id/type/state``). Every level is a
``SequenceEncoder`` sequence: a delimiter inside a field is escaped with a backslash, and a
field that starts with a backslash (or is quoted) is quoted. The field orders below follow
VASSAL 3.8's ``myGetType``/``myGetState`` of each trait (``VASSAL/counters/*.java``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

CTRL = 130
"""VASSAL's modifier code for Ctrl in a keystroke (``keycode,modifiers``)."""
FLIP_KEY = f"{ord('F')},{CTRL}"
DELETE_KEY = f"{ord('D')},{CTRL}"
ROTATE_KEY = f"{ord('R')},{CTRL}"


def encode(fields: Sequence[str | int | bool], delim: str) -> str:
    """One ``SequenceEncoder`` sequence of ``fields`` joined by ``delim``."""
    out: list[str] = []
    for value in fields:
        if isinstance(value, bool):
            out.append("true" if value else "false")
            continue
        if isinstance(value, int):
            out.append(str(value))
            continue
        text = value.replace(delim, "\\" + delim)
        if value.startswith("\\") or (len(value) > 1 and value[0] == value[-1] == "'"):
            text = f"'{text}'"
        out.append(text)
    return delim.join(out)


@dataclass(frozen=True)
class Trait:
    """One trait: its type (with its id) and its state."""

    type: str
    state: str = ""


def basic(image: str, name: str, gpid: str) -> Trait:
    """The innermost trait: the piece's image and name (no clone or delete key)."""
    return Trait("piece;" + encode(["", "", image, name], ";"),
                 encode(["null", 0, 0, gpid, 0], ";"))


def layer_flip(front: str, back: str) -> Trait:
    """A two-layer Layer (Embellishment) showing the front, Ctrl+F turns it over.

    The fields are ``Embellishment.myGetType``'s of VASSAL 3.8: activate key and command,
    increase/decrease keys, offsets, the images, the layer names ("+ (back)" is appended
    to the piece's name on the back), always active, the layer's name and the rest left at
    VASSAL's defaults.
    """
    fields: list[str | int | bool] = [
        "", 0, "", "Flip", CTRL, "F", "", 0, "", "", "", 1, False, 0, 0,
        encode([front, back], ","), encode(["", "+ (back)"], ","), True, "Side", "", "",
        False, "", 1, 1, True, "", FLIP_KEY, "", "Turn over", "1.0", "", ""]
    return Trait("emb2;" + encode(fields, ";"), "1")


def mask(back: str) -> Trait:
    """A card's hidden face (Mask, ``Obscurable``): shows ``back`` when face down."""
    fields: list[str | int | bool] = [FLIP_KEY, back, "Turn over", "G" + back, "Face down",
                                      "player:", "Peek", "", True, "", ""]
    return Trait("obs;" + encode(fields, ";"), encode(["null", ""], ";"))


def rotate(angle: float) -> Trait:
    """Free rotation (``FreeRotator``, one valid angle): Ctrl+R asks for a new angle.

    VASSAL counts ``angle`` in degrees anticlockwise on the screen; ``FreeRotator``'s type
    is the number of valid angles (1: any), the set-angle key and command, the random
    rotation's key and command (none), the trait's name and description, then VASSAL
    3.8's direct rotation (key, command, expression: none) and whether that expression
    is a facing (its default, true).
    """
    fields: list[str | int | bool] = [1, ROTATE_KEY, "Rotate", "", "", "Course", "", "", "",
                                      "", True]
    return Trait("rotate;" + encode(fields, ";"), f"{angle:g}" if angle else "0.0")


def restricted(sides: Sequence[str]) -> Trait:
    """Only these sides' players may move the piece or use its menu."""
    return Trait("restrict;" + encode([encode(list(sides), ","), False, True,
                                       "Own side only"], ";"), "")


def marker(values: dict[str, str]) -> Trait:
    """Marker properties (``Kind``, ``Side``...) other traits and filters can read."""
    return Trait("mark;" + encode(list(values), ","), encode(list(values.values()), ","))


def prototype(name: str) -> Trait:
    """Use the traits of the named prototype."""
    return Trait("prototype;" + encode([name, ""], ";"), "")


def delete() -> Trait:
    """Delete the piece (Ctrl+D)."""
    return Trait("delete;" + encode(["Delete", DELETE_KEY, ""], ";"), "")


def add_piece(traits: Sequence[Trait]) -> str:
    """The AddPiece command VASSAL stores in a PieceSlot: ``+/null/type/state``.

    A decorator's type is its own type and its inner piece's, a two-item tab sequence, so
    the levels nest (and each inner level's tabs are escaped once more), as VASSAL's
    ``Decorator.getType`` writes them; the states likewise.
    """
    type_, state = traits[-1].type, traits[-1].state
    for trait in reversed(traits[:-1]):
        type_ = encode([trait.type, type_], "\t")
        state = encode([trait.state, state], "\t")
    return encode(["+", "null", type_, state], "/")
