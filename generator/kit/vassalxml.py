"""A VASSAL module's ``buildFile.xml``, from a kit's inventory.

Element and attribute names are VASSAL 3.8's (``VASSAL/build/module/...``); each piece is
an AddPiece command of traits (``generator.kit.vassaltraits``). Sizes are pixels at
``DPI``, so a piece is its printed size at that resolution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

from generator.core.errors import RenderError
from generator.core.scales import parse_scale
from generator.kit.inventory import Inventory, Item
from generator.kit.shiptokens import SEA
from generator.kit.vassaltraits import (
    Trait,
    add_piece,
    basic,
    delete,
    layer_flip,
    marker,
    mask,
    prototype,
    restricted,
    rotate,
)

VASSAL_VERSION = "3.7.0"
DPI = 127
"""Pieces and the sea board are drawn at 127 dpi: 50 pixels to the centimetre exactly."""
PIECE_PROTOTYPE = "Piece"
CARD_PROTOTYPE = "Card"
SEA_BOARD = "Open sea"
SEA_IMAGE = "board.sea.png"
"""The sea board's image, when the set-up has land to show on it."""


@dataclass(frozen=True)
class Placement:
    """A piece's position at the start (a scenario's ``setup:``), in table cm.

    ``x`` and ``y`` count from the sea board's top-left corner. A ``hidden`` piece (its
    group is hidden from another side) starts on its own side's plot, a private copy of
    the sea board, not on the shared table.
    """

    piece: str
    x: float
    y: float
    hidden: bool = False


@dataclass
class Contents:
    """What the build file holds, for the caller's report and the tests."""

    slots: dict[str, str] = field(default_factory=dict)
    """Piece id to the tray it is in."""
    gpid: int = 0
    """The last piece-slot id handed out."""

    def next_gpid(self) -> int:
        """A new piece-slot id (VASSAL's ``gpid``), unique in the module."""
        self.gpid += 1
        return self.gpid


def px(mm: float, dpi: int = DPI) -> int:
    """Pixels for a length in millimetres at ``dpi``."""
    return round(mm * dpi / 25.4)


def attrs(**values: object) -> str:
    """XML attributes, escaped (a trailing ``_`` lets a Python keyword be a name)."""
    return " ".join(f'{k.rstrip("_")}="{escape(str(v), quote=True)}"'
                    for k, v in values.items())


def element(tag: str, indent: int, text: str | None = None, **values: object) -> str:
    """One element on its own line: empty, or holding ``text`` (escaped)."""
    pad = " " * indent
    if text is None:
        return f"{pad}<VASSAL.build.{tag} {attrs(**values)}/>\n"
    return (f"{pad}<VASSAL.build.{tag} {attrs(**values)}>{escape(text, quote=False)}"
            f"</VASSAL.build.{tag}>\n")


def opening(tag: str, indent: int, **values: object) -> str:
    """An element's start tag on its own line."""
    return f"{' ' * indent}<VASSAL.build.{tag} {attrs(**values)}>\n"


def closing(tag: str, indent: int) -> str:
    """An element's end tag on its own line."""
    return f"{' ' * indent}</VASSAL.build.{tag}>\n"


def unit_of(inventory: Inventory) -> str:
    """The unit distances are read in on the sea board: the scale's, else cm."""
    scale = str(inventory.board.get("scale") or "")
    return parse_scale(scale).unit if scale else "cm"


# ---- pieces ---------------------------------------------------------------------------

def course_angle(heading: float) -> float:
    """VASSAL's rotation (degrees anticlockwise) that puts a piece on a compass course.

    The piece's bow is its right-hand end (east, as a ship marker's); a course counts
    degrees clockwise from north. The result lies in [-180, 180).
    """
    return round((90.0 - heading + 180.0) % 360.0 - 180.0, 4)


def piece_traits(item: Item, inventory: Inventory, gpid: int,
                 at_start: bool = False) -> list[Trait]:
    """A piece's traits, outermost first: its turn, its flip or mask, its owner, its properties.

    A ship the scenario places turns to any course (Ctrl+R); ``at_start``, she starts on
    her set-up course.
    """
    side_name = inventory.sides.get(item.side or "", "")
    traits: list[Trait] = []
    if item.heading is not None:  # outermost: the turn carries every layer inside it
        traits.append(rotate(course_angle(item.heading) if at_start else 0.0))
    if item.kind == "card":
        traits.append(mask(item.faces[-1]))
    elif len(item.faces) > 1:
        traits.append(layer_flip(item.faces[0], item.faces[1]))
    if inventory.hidden and side_name:
        traits.append(restricted([side_name]))
    traits.append(marker({"Kind": item.group or item.kind, "Side": side_name or "Table",
                          "PieceId": item.id}))
    traits.append(prototype(CARD_PROTOTYPE if item.kind == "card" else PIECE_PROTOTYPE))
    traits.append(basic(item.faces[0], item.title, str(gpid)))
    return traits


def slot(item: Item, inventory: Inventory, contents: Contents, indent: int,
         tag: str = "widget.PieceSlot", at_start: bool = False) -> str:
    """A piece slot (or a deck's card slot) holding one piece at its size."""
    gpid = contents.next_gpid()
    return element(tag, indent, add_piece(piece_traits(item, inventory, gpid, at_start)),
                   entryName=item.title, gpid=gpid, height=px(item.height_mm),
                   width=px(item.width_mm))


def prototypes() -> str:
    """The traits every piece shares (Delete), once per kind of piece."""
    out = [opening("module.PrototypesContainer", 2)]
    for name in (PIECE_PROTOTYPE, CARD_PROTOTYPE):
        traits = [delete(), Trait("piece;;;;", "null;0;0;;0")]
        out.append(element("module.PrototypeDefinition", 4, add_piece(traits), name=name,
                           description=f"Shared by every {name.lower()}"))
    out.append(closing("module.PrototypesContainer", 2))
    return "".join(out)


def trays(inventory: Inventory, contents: Contents) -> str:
    """A piece window per side, and one for the table's pieces, a tab per sheet group."""
    by_side: dict[str | None, list[Item]] = {}
    for item in inventory.of_kind("counter", "token"):
        by_side.setdefault(item.side, []).append(item)
    out = []
    for side, items in by_side.items():
        name = inventory.sides.get(side or "", "Table")
        groups: dict[str, list[Item]] = {}
        for item in items:
            groups.setdefault(item.group or "pieces", []).append(item)
        out.append(opening("module.PieceWindow", 2, name=name, hidden="false", scale="1.0",
                           text=f"{name} pieces", tooltip=f"Show the {name} piece tray",
                           icon="", hotkey=""))
        out.append(opening("widget.TabWidget", 4, entryName=name))
        for group, members in groups.items():
            out.append(opening("widget.ListWidget", 6, entryName=group, divider=200,
                               height=0, scale="1.0", width=0))
            for item in members:
                out.append(slot(item, inventory, contents, 8))
                contents.slots[item.id] = name
            out.append(closing("widget.ListWidget", 6))
        out.append(closing("widget.TabWidget", 4) + closing("module.PieceWindow", 2))
    return "".join(out)


# ---- the table ------------------------------------------------------------------------

def sea_size(inventory: Inventory) -> tuple[int, int]:
    """The sea board's (width, height) in pixels: the table's size in cm at ``DPI``."""
    return (px(10 * float(str(inventory.board.get("width", 180)))),
            px(10 * float(str(inventory.board.get("height", 120)))))


def board(inventory: Inventory, name: str = SEA_BOARD) -> tuple[str, str]:
    """The board element and the measuring thread (none on a page of the kit)."""
    pages = inventory.of_kind("board")
    if pages:
        return (element("module.map.boardPicker.Board", 6, image=pages[0].faces[0],
                        name=pages[0].title, reversible="false"), "")
    unit = unit_of(inventory)
    per_unit = DPI / 2.54 if unit == "cm" else float(DPI)
    width, height = sea_size(inventory)
    image = SEA_IMAGE if inventory.board.get("land") else ""
    sea = element("module.map.boardPicker.Board", 6, image=image, name=name,
                  reversible="false", width=width, height=height, color=SEA)
    thread = element(
        "module.map.LOS_Thread", 4, threadName="Measure", hotkey="",
        tooltip=f"Measure a distance in {unit}", iconName="", label="Measure",
        snapStart="false", snapEnd="false", report=f"Measured $Range$ {unit}",
        persistence="Ctrl-Click & Drag", persistentIconName="", global_="Always",
        drawRange="true", scale=round(per_unit), round="Nearest whole number",
        hideCounters="false", hideOpacity=0, losThickness=2, threadColor="255,255,255",
        rangeFg="0,0,0", rangeBg="255,255,255")
    return sea, thread


def decks(inventory: Inventory, contents: Contents) -> str:
    """Each deck as a draw pile on the table: every copy of every card, shuffled, face down."""
    by_id = {item.id: item for item in inventory.items}
    out = []
    x = 200
    for deck in inventory.of_kind("deck"):
        width, height = px(deck.width_mm), px(deck.height_mm)
        owner = f" ({inventory.sides[deck.side]})" if deck.side else ""
        out.append(opening("module.map.DrawPile", 4, name=deck.title + owner, owningBoard="",
                           x=x, y=200, width=width, height=height, allowMultiple="false",
                           allowSelect="false", faceDown="Always", drawFaceUp="false",
                           shuffle="Always", reversible="false", draw="true", color="0,0,0",
                           reshufflable="false", canSave="false"))
        x += width + 100
        for card_id in deck.cards:
            card = by_id[card_id]
            for _ in range(card.copies):
                out.append(slot(card, inventory, contents, 6, "widget.CardSlot"))
        out.append(closing("module.map.DrawPile", 4))
    return "".join(out)


def setup_stacks(inventory: Inventory, setup: Sequence[Placement], contents: Contents,
                 on: str = SEA_BOARD) -> str:
    """At-start stacks at the scenario's starting positions, on the board named ``on``."""
    by_id = {item.id: item for item in inventory.items}
    out = []
    for place in setup:
        item = by_id.get(place.piece)
        if item is None:
            raise RenderError(f"setup: piece {place.piece!r} is not in the kit")
        out.append(opening("module.map.SetupStack", 4, name=item.title,
                           owningBoard=on, x=px(10 * place.x), y=px(10 * place.y),
                           useGridLocation="false", location=""))
        out.append(slot(item, inventory, contents, 6, at_start=True))
        out.append(closing("module.map.SetupStack", 4))
    return "".join(out)


MAP_PARTS = element("module.map.StackMetrics", 4, bottom="40,0", down="37,0", exSepX=6,
                    exSepY=18, top="38,0", unexSepX=8, unexSepY=16, up="39,0",
                    disabled="false") + "".join(
    f"    <VASSAL.build.module.map.{tag}/>\n" for tag in [
        "ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
        "StackExpander", "PieceMover", "KeyBufferer", "ImageSaver", "CounterDetailViewer",
        "Zoomer"])
"""The map's standard parts: stacking, scrolling, the piece menu, moving, zooming."""


def _map(tag: str, name: str, board_xml: str, inner: str, **extra: object) -> str:
    """A map (or a side's private map) with one board and its standard parts."""
    picker = opening("module.map.BoardPicker", 4, addColumnText="Add column",
                     addRowText="Add row", boardPrompt="Select board", slotHeight=125,
                     slotScale="0.2", slotWidth=350, title="Choose Boards")
    return (opening(tag, 2, **extra, mapName=name, allowMultiple="false",
                    backgroundcolor="255,255,255", buttonName="", changeFormat="$message$",
                    color="255,0,0", createFormat="$pieceName$ put on the table *",
                    edgeHeight=0, edgeWidth=0, hideKey="", hotkey="", icon="",
                    launch="false", markMoved="Never", markUnmovedHotkey="",
                    markUnmovedIcon="/images/unmoved.gif", markUnmovedReport="",
                    markUnmovedText="", moveKey="",
                    moveToFormat="$pieceName$ moves $previousLocation$ -> $location$ *",
                    moveWithinFormat="$pieceName$ moves *", showKey="", thickness=3)
            + picker + board_xml + closing("module.map.BoardPicker", 4) + MAP_PARTS + inner
            + closing(tag, 2))


def table_map(inventory: Inventory, setup: Sequence[Placement], contents: Contents) -> str:
    """The Table map: its board, the measuring thread, the decks and the at-start stacks."""
    sea, thread = board(inventory)
    return _map("module.Map", "Table", sea, thread + decks(inventory, contents)
                + setup_stacks(inventory, [p for p in setup if not p.hidden], contents))


def plot_name(side_name: str) -> str:
    """A side's plot: its private copy of the sea board, for its hidden groups."""
    return f"{side_name} plot"


def plots(inventory: Inventory, setup: Sequence[Placement], contents: Contents) -> str:
    """Each side's plot: a sea board only that side sees, with its hidden ships at start.

    A hidden group is not on the shared table (a masked piece there would still give its
    position away); its side keeps it on its plot until the rules reveal it, then moves
    it to the table at the same place.
    """
    by_id = {item.id: item for item in inventory.items}
    out = []
    for side, name in inventory.sides.items():
        own = [p for p in setup if p.hidden and by_id[p.piece].side == side]
        if not own or inventory.of_kind("board"):
            continue
        sea, thread = board(inventory, plot_name(name))
        out.append(_map("module.PrivateMap", plot_name(name), sea,
                        thread + setup_stacks(inventory, own, contents, plot_name(name)),
                        side=escape_list([name]), visible="false", useBoards=""))
    return "".join(out)


def kept_apart(inventory: Inventory) -> list[Item]:
    """The charts only their own side may see (its matchup pages, where packets hide them)."""
    return [chart for chart in inventory.of_kind("chart")
            if inventory.hidden and chart.side is not None]


def desks(inventory: Inventory, contents: Contents,
          sizes: dict[str, tuple[int, int]]) -> str:
    """Each side's private desk: its own charts laid out page by page, seen by it only.

    ``sizes`` gives each page image's size in pixels; the pages are pieces at the start,
    side by side in a row, so a player reads them where they lie.
    """
    out = []
    for side, name in inventory.sides.items():
        pages = [(chart, face) for chart in kept_apart(inventory) if chart.side == side
                 for face in chart.faces]
        if not pages:
            continue
        gap = 40
        width = sum(sizes[face][0] + gap for _, face in pages) + gap
        height = max(sizes[face][1] for _, face in pages) + 2 * gap
        desk = f"{name} desk"
        stacks, x = [], gap
        for number, (chart, face) in enumerate(pages, start=1):
            w, h = sizes[face]
            gpid = contents.next_gpid()
            piece = add_piece([marker({"Kind": "chart", "Side": name, "PieceId": chart.id}),
                               basic(face, f"{chart.title}, page {number}", str(gpid))])
            stacks.append(opening("module.map.SetupStack", 4, name=f"{chart.title} {number}",
                                  owningBoard=desk, x=x + w // 2, y=gap + h // 2,
                                  useGridLocation="false", location="")
                          + element("widget.PieceSlot", 6, piece, entryName=chart.title,
                                    gpid=gpid, height=h, width=w)
                          + closing("module.map.SetupStack", 4))
            x += w + gap
        board_xml = element("module.map.boardPicker.Board", 6, image="", name=desk,
                            reversible="false", width=width, height=height,
                            color="230,230,220")
        out.append(_map("module.PrivateMap", desk, board_xml, "".join(stacks),
                        side=escape_list([name]), visible="false", useBoards=""))
    return "".join(out)


def escape_list(values: Sequence[str]) -> str:
    """A VASSAL string list (``StringArrayConfigurer``): comma-separated, commas escaped."""
    return ",".join(value.replace(",", "\\,") for value in values)


def charts(inventory: Inventory) -> str:
    """The chart window: a tab per page of the card, the tables and the matchup pages."""
    apart = {chart.id for chart in kept_apart(inventory)}
    found = [chart for chart in inventory.of_kind("chart") if chart.id not in apart]
    if not found:
        return ""
    out = [opening("module.ChartWindow", 2, name="Charts", text="Charts",
                   tooltip="The card, the tables and the matchup pages", icon="", hotkey=""),
           opening("widget.TabWidget", 4, entryName="Charts")]
    for chart in found:
        side = f" ({inventory.sides[chart.side]})" if chart.side else ""
        for number, face in enumerate(chart.faces, start=1):
            page = f", page {number}" if len(chart.faces) > 1 else ""
            out.append(element("widget.Chart", 6, chartName=chart.title + side + page,
                               fileName=face, description=""))
    out.append(closing("widget.TabWidget", 4) + closing("module.ChartWindow", 2))
    return "".join(out)


def dice(inventory: Inventory) -> str:
    """A dice button for each die the rules roll (the chat reports who rolled what)."""
    return "".join(element(
        "module.DiceButton", 2, name=die.title, nDice=die.copies, nSides=die.sides, plus=0,
        addToTotal=0, reportTotal="false", prompt="false", text=die.title,
        tooltip=f"Roll {die.title}", icon="", hotkey="",
        reportFormat="** $name$ = $result$ *** &lt;$playerName$&gt;")
        for die in inventory.of_kind("die"))


GLOBAL_OPTIONS = element(
    "module.GlobalOptions", 2, autoReport="Always", centerOnMove="Use Preferences Setting",
    chatterHTMLSupport="Always", hotKeysOnClosedWindows="Never", inventoryForAll="Always",
    nonOwnerUnmaskable="Use Preferences Setting", playerIdFormat="$playerName$",
    promptString="Opponents can unmask pieces", sendToLocationMoveTrails="Never",
    storeLeadingZeroIntegersAsStrings="false")


def build_file(inventory: Inventory, name: str, description: str,
               sizes: dict[str, tuple[int, int]],
               setup: Sequence[Placement] = ()) -> tuple[str, Contents]:
    """The whole ``buildFile.xml`` and what it holds (``sizes``: each image's, in px)."""
    contents = Contents()
    roster = "".join(f"    <entry>{escape(side)}</entry>\n" for side in inventory.sides.values())
    body = ("  <VASSAL.build.module.BasicCommandEncoder/>\n"
            + opening("module.Documentation", 2)
            + element("module.documentation.HelpFile", 4, fileName="help/about.html",
                      fileType="archive", title="About this module")
            + closing("module.Documentation", 2)
            + opening("module.PlayerRoster", 2, buttonKeyStroke="", buttonText="Retire",
                      buttonToolTip="Switch sides") + roster
            + closing("module.PlayerRoster", 2) + GLOBAL_OPTIONS
            + "  <VASSAL.build.module.Chatter/>\n" + prototypes()
            + trays(inventory, contents) + table_map(inventory, setup, contents)
            + plots(inventory, setup, contents) + desks(inventory, contents, sizes)
            + charts(inventory) + dice(inventory))
    head = attrs(ModuleOther1="", ModuleOther2="", VassalVersion=VASSAL_VERSION,
                 description=description, name=name, nextPieceSlotId=contents.gpid + 1,
                 version="1.0")
    return ('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
            f"<VASSAL.build.GameModule {head}>\n{body}</VASSAL.build.GameModule>\n", contents)
