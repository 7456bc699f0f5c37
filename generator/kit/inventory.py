"""A kit's inventory: every piece, card, deck, chart, board and die of a kit, as data.

The inventory is read off a composed kit (``generator.kit.pipeline.Kit``): the pieces are
the very pieces its components put on their sheets, each under the side whose component
drew it, and the charts and the board are its components' pages, located in its packets.
Nothing here derives an order of battle again. It is written as ``pieces.json`` with every
build and read by every export (the PNGs, the Tabletop Simulator save, the VASSAL module),
so they all agree on ids, sides, copies and image names.

Where the scenario gives a ``setup:`` block, each ship's piece carries where she starts
(``at``, the set-up map's own numbers: ``generator.kit.shiptokens``), and a ship whose
ruleset prints no counter of her gets a token; the table's size is the block's.

What the kit cannot say for itself (the dice its rules roll, which components are charts,
the playing surface) comes from the ruleset's ``online.yaml`` (``generator.kit.online``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from generator.core.slugs import slug
from generator.core.units import MM
from generator.kit.online import Online
from generator.kit.packets import sheet_layout
from generator.kit.shiptokens import (
    land_mm,
    own_piece,
    ship_tokens,
    starts,
    table_mm,
    token_id,
)

if TYPE_CHECKING:
    from generator.kit.pipeline import Kit
    from generator.pieces.pieces import Piece

PIECES_JSON = "pieces.json"
FORMAT = 1
"""The version of ``pieces.json``'s layout, raised when a field changes meaning."""

Kind = Literal["counter", "token", "card", "deck", "chart", "board", "die"]


@dataclass(frozen=True)
class PageRef:
    """Where one page of a chart or board is printed: a packet file and its page (from 0)."""

    file: str
    page: int


@dataclass(frozen=True)
class Item:
    """One thing on the table.

    Attributes:
        id: Stable id; a piece's is the printed piece's id (``ship.chokai``).
        title: What a player calls it.
        kind: ``counter`` (markers and counters), ``token`` (a ship's token for an online
            table: no sheet prints it, only ``vassal`` and ``tts`` draw it), ``card``,
            ``deck`` (the cards of one deck for one side), ``chart``, ``board`` or ``die``.
        side: The side id whose component holds it, or None when the table shares it.
        width_mm: Trim width (a die: 0).
        height_mm: Trim height.
        faces: The image file of each face, front first (``ship.chokai.png``,
            ``ship.chokai.back.png``); a chart's or board's, one per page.
        copies: How many the kit prints (a deck: its cards, counted with copies).
        deck: A card's deck name; a deck's own name.
        group: The sheet region a piece is printed in (``ship``, ``smoke``...).
        cards: A deck's card ids, in deck order.
        pages: A chart's or board's pages in the kit's packets.
        sides: A die's faces.
        color: A die's colour.
        at: Where the piece starts: (x, y) in mm of table from its north-west (top-left)
            corner, x east and y south; None when the scenario does not place it.
        heading: Its course at the start, compass degrees (with ``at``).
        start_hidden: Its group is hidden from another side at the start, so an online
            table keeps it in its side's tray (with ``at``: where its side puts it).

    """

    id: str
    title: str
    kind: Kind
    side: str | None
    width_mm: float = 0.0
    height_mm: float = 0.0
    faces: tuple[str, ...] = ()
    copies: int = 1
    deck: str = ""
    group: str = ""
    cards: tuple[str, ...] = ()
    pages: tuple[PageRef, ...] = ()
    sides: int = 0
    color: str = ""
    at: tuple[float, float] | None = None
    heading: float | None = None
    start_hidden: bool = False


@dataclass(frozen=True)
class Inventory:
    """A kit's inventory: its scenario, sides, the online table's facts and every item."""

    scenario: str
    scenario_name: str
    ruleset: str
    ruleset_title: str
    sides: dict[str, str]
    items: tuple[Item, ...]
    hidden: bool = False
    board: dict[str, object] = field(default_factory=dict)

    def of_kind(self, *kinds: Kind) -> list[Item]:
        """The items of these kinds, in inventory order."""
        return [item for item in self.items if item.kind in kinds]

    def as_json(self) -> dict[str, object]:
        """The inventory as written to ``pieces.json``."""
        def item(one: Item) -> dict[str, object]:
            data = asdict(one)
            data["pages"] = [{"file": p.file, "page": p.page} for p in one.pages]
            data["faces"] = list(one.faces)
            data["cards"] = list(one.cards)
            data["at"] = list(one.at) if one.at is not None else None
            return data

        return {"format": FORMAT, "scenario": self.scenario,
                "scenario_name": self.scenario_name, "ruleset": self.ruleset,
                "ruleset_title": self.ruleset_title,
                # A list: the scenario's order of sides survives sorted keys.
                "sides": [{"id": k, "name": v} for k, v in self.sides.items()],
                "hidden": self.hidden, "board": self.board,
                "items": [item(one) for one in self.items]}

    def json_bytes(self) -> bytes:
        """``pieces.json``'s bytes: sorted keys, so a rebuild writes the same file."""
        text = json.dumps(self.as_json(), indent=1, sort_keys=True, ensure_ascii=False)
        return (text + "\n").encode()


def face_files(piece_id: str, two_sided: bool) -> tuple[str, ...]:
    """The image files of a piece's faces, as ``export_pngs`` names them."""
    return (f"{piece_id}.png", *((f"{piece_id}.back.png",) if two_sided else ()))


def _side_of(key: str, sides: dict[str, str]) -> str | None:
    """The side a component key is drawn for (``markers:allied``), or None if shared."""
    _, _, arg = key.partition(":")
    return arg if arg in sides else None


def inventory(kit: Kit, online: Online | None = None) -> Inventory:
    """The inventory of a composed kit.

    Args:
        kit: The kit, composed with or without ``export`` (only the pieces' descriptions
            are read).
        online: The ruleset's ``online.yaml``: its dice, charts and board (None: pieces
            and decks only).

    Returns:
        Pieces in the order their components drew them (a piece two sides both print, a
        shared pool, once, as the table's, its copies added up), then decks, charts, the
        board and the dice.

    """
    pieces: dict[str, Item] = {}
    decks: dict[tuple[str, str | None], list[Item]] = {}
    for key, drawn in kit.sources.items():
        side = _side_of(key, kit.sides)
        for piece in drawn:
            before = pieces.get(piece.id)
            item = Item(piece.id, piece.title, "card" if piece.deck else "counter",
                        side, round(piece.width / MM, 2), round(piece.height / MM, 2),
                        face_files(piece.id, piece.back is not None), piece.quantity,
                        piece.deck, piece.group)
            if before is not None:
                item = replace(before, side=before.side if before.side == side else None,
                               copies=before.copies + piece.quantity)
            pieces[piece.id] = item
    _place(kit, pieces)
    for item in pieces.values():
        if item.kind == "card":
            decks.setdefault((item.deck, item.side), []).append(item)
    items: list[Item] = list(pieces.values())
    for (name, side), cards in decks.items():
        suffix = f".{side}" if side else ""
        items.append(Item(f"deck.{slug(name)}{suffix}", name, "deck", side,
                          cards[0].width_mm, cards[0].height_mm, (), sum(c.copies for c in cards),
                          name, cards=tuple(c.id for c in cards)))
    board: dict[str, object] = {}
    hidden = False
    if online is not None:
        hidden = online.hidden
        items.extend(_documents(kit, online))
        board = online.board.model_dump()
        if kit.setup is not None:  # the scenario's table, at its scale
            width, depth = table_mm(kit.setup)
            board.update(width=round(width / 10, 2), height=round(depth / 10, 2),
                         land=land_mm(kit.setup))
        scale = kit.values.get("scale")
        if scale and not online.board.scale:
            board["scale"] = scale
        items.extend(Item(f"die.{slug(die.name)}", die.name, "die", None, copies=die.count,
                          sides=die.sides, color=die.color) for die in online.dice)
    return Inventory(kit.values.get("scenario", ""), kit.values.get("scenario_name", ""),
                     kit.ruleset, kit.title, dict(kit.sides), tuple(items), hidden, board)


def ship_pieces(kit: Kit) -> list[Piece]:
    """The tokens of the scenario's ships that have no counter of their own.

    None without a ``setup:`` block; their artwork is drawn when they are exported.
    """
    if kit.setup is None:
        return []
    counters = _counters(kit)
    return ship_tokens(kit.setup, lambda start: own_piece(start, counters) is None)


def _counters(kit: Kit) -> list[tuple[str, str, str | None]]:
    """(id, title, side) of every counter the kit's components draw, each under its side."""
    return [(p.id, p.title, _side_of(key, kit.sides)) for key, drawn in kit.sources.items()
            for p in drawn if not p.deck]


def _place(kit: Kit, pieces: dict[str, Item]) -> None:
    """Add the ships' tokens to ``pieces`` and mark each ship's piece with where she starts."""
    if kit.setup is None:
        return
    placed = starts(kit.setup)
    side_of = {token_id(start.side, start.ship): start.side for start in placed}
    for token in ship_pieces(kit):
        pieces[token.id] = Item(token.id, token.title, "token", side_of[token.id],
                                round(token.width / MM, 2), round(token.height / MM, 2),
                                face_files(token.id, False), 1, group=token.group)
    counters = _counters(kit)
    for start in placed:
        # Her own counter, as ``ship_pieces`` found it, or else the token it drew for her.
        found = own_piece(start, counters) or token_id(start.side, start.ship)
        pieces[found] = replace(pieces[found], at=(round(start.x_mm, 2), round(start.y_mm, 2)),
                                heading=start.heading, start_hidden=start.hidden)


def _documents(kit: Kit, online: Online) -> list[Item]:
    """The charts and the board: components of the kit, each page located in a packet."""
    pages: dict[str, list[PageRef]] = {}
    for spec in kit.packets:
        for number, placed in enumerate(sheet_layout(spec, kit.components)):
            if placed.key is None or placed.key not in kit.components:
                continue
            found = pages.setdefault(placed.key, [])
            if len(found) < kit.components[placed.key].pages and all(
                    ref.file == spec.filename for ref in found):
                found.append(PageRef(spec.filename, number))
    wanted_board = online.board.component if online.board.kind == "component" else None
    out: list[Item] = []
    for key, component in kit.components.items():
        name = key.partition(":")[0]
        refs = pages.get(key, [])
        if not refs:
            continue
        if key == wanted_board:
            kind: Kind = "board"
        elif name in online.charts:
            kind = "chart"
        else:
            continue
        ident = f"{kind}.{slug(key)}"
        out.append(Item(ident, component.title, kind, _side_of(key, kit.sides),
                        faces=tuple(f"{ident}.{n + 1}.png" for n in range(len(refs))),
                        copies=1, pages=tuple(refs)))
    return out
