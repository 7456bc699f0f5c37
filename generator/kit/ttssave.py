"""A Tabletop Simulator saved object from a kit and its inventory.

The save is one JSON file (TTS's Saved Object format: ``ObjectStates``) and its images,
written beside it. By default the save names them by ``file:///`` URLs, so it loads on
the machine that wrote it; given a base URL (``--image-url``, where the user uploads the
images folder), it names them there, so every player's TTS can fetch them:

- each deck as a custom deck: its cards on sheets of at most 10 x 7 and 4,096 px with
  their backs (``generator.pieces.export.export_tts``, the same sheets as
  ``quarterdeck markers --tts``), the last slot the hidden face;
- each side's counters and markers (and the table's) in a bag, one two-sided tile per
  copy, its front and back the PNGs ``export_pngs`` writes, scaled to its printed size;
- on a tactical ruleset's sea board (a locked tile the size of the table, with the
  set-up's land), each ship the scenario places (the inventory's ``at``, the set-up map's
  positions) as a tile where she starts, on her course, the table's middle at TTS's
  origin; a ship of a hidden group stays in her side's bag;
- the dice the rules roll.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from generator.core.output import write_atomic
from generator.kit.inventory import Inventory, Item
from generator.kit.shiptokens import sea_png
from generator.pieces.export import export_pngs, export_tts
from generator.pieces.pieces import Piece

DPI = 200
"""Tiles and cards are drawn at 200 dpi: sharp when zoomed in, and sheets stay small."""
TTS_INCH = 1.0
"""A tile at scale 1 is an inch across in TTS's units; tiles are scaled by their size."""
SEA_DPI = 20
"""The sea board's image: a flat sea and coastlines need few pixels; TTS stretches it."""
SEA_FILE = "board.sea.png"
DICE = {4: "Die_4", 6: "Die_6", 8: "Die_8", 10: "Die_10", 12: "Die_12", 20: "Die_20"}
COLORS = {"white": (1.0, 1.0, 1.0), "red": (0.8, 0.1, 0.1), "black": (0.1, 0.1, 0.1),
          "blue": (0.1, 0.3, 0.8), "green": (0.1, 0.6, 0.2), "yellow": (0.9, 0.8, 0.1)}


def _transform(x: float, z: float, scale: float = 1.0, turn: float = 180.0,
               ) -> dict[str, float]:
    return {"posX": x, "posY": 1.0, "posZ": z, "rotX": 0.0, "rotY": turn, "rotZ": 0.0,
            "scaleX": scale, "scaleY": 1.0, "scaleZ": scale}


Public = Path | str
"""Where TTS finds the images: the folder they will be in (``file:///`` URLs), or a base
URL the user uploads that folder to (``https://example.org/kit/``)."""


def _url(public: Public, name: str) -> str:
    """An image's URL: a ``file:///`` path, or ``name`` under the base URL."""
    if isinstance(public, Path):
        return (public.resolve() / name).as_uri()
    return public.rstrip("/") + "/" + quote(name)


def _under(public: Public, sub: str) -> Public:
    """The URL base of a subfolder of the images."""
    return public / sub if isinstance(public, Path) else public.rstrip("/") + "/" + sub


def table_position(item: Item, board: dict[str, object]) -> tuple[float, float, float]:
    """Where a placed piece lies on the TTS table: (x, z, turn about y).

    TTS counts in inches (a tile of scale 1 is an inch across) from the table's middle,
    x east and z north; ``at`` counts mm from the table's top-left corner, y south. A
    piece's bow is its image's right-hand end (east at TTS's upright 180°), so a course
    turns it clockwise from there, as TTS's turns about y do.
    """
    assert item.at is not None
    width = float(str(board.get("width", 180))) * 10
    depth = float(str(board.get("height", 120))) * 10
    x = (item.at[0] - width / 2) / 25.4 * TTS_INCH
    z = (depth / 2 - item.at[1]) / 25.4 * TTS_INCH
    heading = 90.0 if item.heading is None else item.heading
    return round(x, 4), round(z, 4), (90.0 + heading) % 360


def _tile(item: Item, public: Public, where: tuple[float, float, float] | None = None,
          ) -> dict[str, object]:
    """One two-sided (or one-sided) tile at the piece's printed size (at ``where``)."""
    front = _url(public, item.faces[0])
    back = _url(public, item.faces[1]) if len(item.faces) > 1 else front
    x, z, turn = where or (0.0, 0.0, 180.0)
    return {"Name": "Custom_Tile", "Nickname": item.title, "Description": item.id,
            "Transform": _transform(x, z, item.width_mm / 25.4 * TTS_INCH, turn),
            "CustomImage": {"ImageURL": front, "ImageSecondaryURL": back,
                            "ImageScalar": 1.0, "WidthScale": 0.0,
                            "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": True,
                                           "Stretch": True}}}


def saved_object(inventory: Inventory, pieces: Sequence[Piece], folder: Path,
                 public: Public | None = None) -> dict[str, object]:
    """Write the images into ``folder`` and return the saved object naming them.

    ``public`` is where the images will be when TTS loads the save: by default
    ``folder`` (a staged folder is put in place under its final name), or a base URL.
    """
    public = public or folder
    by_id = {piece.id: piece for piece in pieces}
    counters = inventory.of_kind("counter", "token")
    export_pngs([by_id[item.id] for item in counters], folder, DPI)
    objects: list[dict[str, object]] = []
    if inventory.board.get("kind") == "sea":
        objects.append(_sea(inventory, folder, public))
    bags: dict[str | None, list[dict[str, object]]] = {}
    for item in counters:
        copies = item.copies
        if item.at is not None and not item.start_hidden:  # on the table where she starts
            objects.append(_tile(item, public, table_position(item, inventory.board)))
            copies -= 1
        bags.setdefault(item.side, []).extend(_tile(item, public) for _ in range(copies))
    for number, (side, tiles) in enumerate(bags.items()):
        name = inventory.sides.get(side or "", "Table")
        objects.append({"Name": "Bag", "Nickname": f"{name} pieces",
                        "Transform": _transform(-10.0 + 5.0 * number, -8.0),
                        "ContainedObjects": tiles})
    for number, deck in enumerate(inventory.of_kind("deck")):
        objects.append(_deck(deck, inventory, by_id, folder, public, number))
    for number, die in enumerate(inventory.of_kind("die")):
        kind = DICE.get(die.sides, "Die_6")
        red, green, blue = COLORS.get(die.color, COLORS["white"])
        for copy in range(die.copies):
            objects.append({"Name": kind, "Nickname": die.title,
                            "Transform": _transform(10.0 + 2.0 * number, -8.0 + 2.0 * copy),
                            "ColorDiffuse": {"r": red, "g": green, "b": blue}})
    return {"SaveName": f"{inventory.scenario_name} ({inventory.ruleset_title})",
            "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "", "Rules": "",
            "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": objects, "TabStates": {}, "VersionNumber": ""}


def _sea(inventory: Inventory, folder: Path, public: Public) -> dict[str, object]:
    """The table: a locked tile of the sea (and the set-up's land), its middle at the origin."""
    width = float(str(inventory.board.get("width", 180))) / 2.54
    depth = float(str(inventory.board.get("height", 120))) / 2.54
    data, _ = sea_png(inventory.board, (round(width * SEA_DPI), round(depth * SEA_DPI)),
                      SEA_DPI)
    write_atomic(folder / SEA_FILE, data)
    url = _url(public, SEA_FILE)
    transform = _transform(0.0, 0.0, round(width * TTS_INCH, 4))
    transform["posY"] = 0.5  # under the pieces, which settle onto it
    return {"Name": "Custom_Tile", "Nickname": "Sea", "Description": "board.sea",
            "Locked": True, "Transform": transform,
            "CustomImage": {"ImageURL": url, "ImageSecondaryURL": url, "ImageScalar": 1.0,
                            "WidthScale": 0.0,
                            "CustomTile": {"Type": 0, "Thickness": 0.1, "Stackable": False,
                                           "Stretch": True}}}


def _deck(deck: Item, inventory: Inventory, by_id: dict[str, Piece], folder: Path,
          public: Public, number: int) -> dict[str, object]:
    """A custom deck from the ``export_tts`` sheets of its cards (copies counted)."""
    cards = [by_id[card] for card in deck.cards]
    sub = f"deck-{number + 1}"
    manifest = export_tts(cards, folder / sub, DPI)
    custom: dict[str, object] = {}
    contained: list[dict[str, object]] = []
    ids: list[int] = []
    titles = {card.id: card.title for card in cards}
    for index, sheet in enumerate(manifest.sheets, start=1):
        custom[str(index)] = {
            "FaceURL": _url(_under(public, sub), sheet.file),
            "BackURL": _url(_under(public, sub), sheet.back_file or sheet.file),
            "NumWidth": sheet.columns, "NumHeight": sheet.rows, "BackIsHidden": True,
            "UniqueBack": sheet.back_file is not None}
        for slot in sheet.slots:
            card_id = index * 100 + slot.slot
            ids.append(card_id)
            contained.append({"Name": "Card", "Nickname": titles[slot.id],
                              "Description": slot.id, "CardID": card_id,
                              "Transform": _transform(0.0, 0.0)})
    owner = f" ({inventory.sides[deck.side]})" if deck.side else ""
    return {"Name": "DeckCustom", "Nickname": deck.title + owner,
            "Transform": _transform(-4.0 + 4.0 * number, 0.0),
            "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained}


def write_save(inventory: Inventory, pieces: Sequence[Piece], folder: Path,
               public: Public, name: str) -> Path:
    """Write ``<name>.json`` (the saved object) and its images into ``folder``."""
    save = saved_object(inventory, pieces, folder, public)
    path = folder / f"{name}.json"
    text = json.dumps(save, indent=1, ensure_ascii=False)
    write_atomic(path, (text + "\n").encode())
    return path
