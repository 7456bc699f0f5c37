"""Write the terminal corpus: ``python tests/hostile_corpus/terminal/make.py``.

Each case is one class or scenario file holding a hostile string (ESC sequences, C1
controls, BEL, backspace, CR, NUL, bidi overrides, zero-width characters), written with
YAML's own escapes (``\\e``, ``\\x9b``, ``\\u202e``) so the file itself stays printable
(or, for the ``raw-*`` cases, with the raw character YAML refuses). Its header says what
``tests/cli/test_hardening_terminal.py`` checks:

    # case: what the case is
    # run: the commands, separated by " | " (check, list WHAT, catalog, odds ARGS;
    #      odds arguments in YAML double-quoted escapes)
    # exit: 0 or 2
    # shows: the escaped form that must reach the output
    # says: (exit 2) the first line on stderr; {file} is the file's path

The files are committed; this script only makes them again after a change here.
"""
import re
import sys
import unicodedata
from pathlib import Path

out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent
out.mkdir(parents=True, exist_ok=True)

HEAD = """# case: {title}
# run: {run}
# exit: {exit}
# shows: {shows}
"""

CLASS = """kind: ship-class
id: {id}
name: {name}
nation: {nation}
type: DD
ships:
  - {{name: {ship}, hull: DD-1, commissioned: 1939-08-01}}
length_ft: 348
displacement_t: 1570
armor: {{belt_in: 0, deck_in: 0}}
speed_kn: 37
guns:
  - {{position: BOW, guns: 2, bore_in: 5, dp: true, max_range_yd: 18000, rounds_per_gun: 300,
     note: {note}}}
torpedoes:
  - {{size_in: 21, mounts: 2, tubes: 4, mount: centerline}}
notes: {notes}
sources: ["a book"]
"""

SCENARIO = """kind: scenario
ruleset: surface-action
id: {id}
name: {name}
date: 1942-11-13
date_label: {date_label}
time: night
sighting_in: 12
weapons:
  bands_in: [6, 12, 18, 24, 30, 36]
  guns:
    5in: {{name: "4.7in-5in (12-12.7 cm)", hit: [5, 4, 2, 1], power: 2}}
  torpedoes:
    21in: {{name: "21in (53.3 cm)", hit: [4, 3, 2], power: 5}}
    24in-type93: {{name: "24in Type 93", hit: [4, 4, 3, 2], power: 6}}
starting_conditions: Both sides enter at speed.
sides:
  - id: {side_id}
    name: {side}
    commander: {commander}
    edge: north
    briefing: {briefing}
    ships:
      - {{class: sims, name: {ship}}}
  - id: japan
    name: Raiding Force
    commander: Someone
    edge: south
    briefing: Sink them.
    ships:
      - {{class: fubuki, name: Amagiri}}
victory: {victory}
sources: ["a book"]
"""


def q(text: str) -> str:
    """A YAML double-quoted scalar for ``text``, every special character as a YAML escape."""
    out = []
    for ch in text:
        code = ord(ch)
        if ch in '"\\':
            out.append("\\" + ch)
        elif code == 0x1b:
            out.append("\\e")
        elif code < 0x20 or 0x7f <= code <= 0x9f:
            out.append(f"\\x{code:02x}")
        elif unicodedata.category(ch) == "Cf":
            out.append(f"\\u{code:04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def shown(text: str) -> str:
    """What quarterdeck prints for ``text``: control and format characters escaped."""
    return "".join(ch.encode("unicode_escape").decode()
                   if unicodedata.category(ch) in ("Cc", "Cf") else ch for ch in text)


# The first line on stderr of each case that ends in exit 2 ({file}: the file's path), as
# recorded in the corpus by hand (the test checks it); kept when the files are rewritten.
SAYS = {path.stem: found.group(1) for path in out.glob("*.yaml")
        if (found := re.search(r"^# says: (.*)$", path.read_text(encoding="utf-8"), re.M))}


for old in out.glob("*.yaml"):
    old.unlink()


def write(file: str, title: str, run: str, exit_: int, show: str, body: str) -> None:
    assert show.isprintable(), (file, show)
    text = HEAD.format(title=title, run=run, exit=exit_, shows=show)
    if file in SAYS:
        text += f"# says: {SAYS[file]}\n"
    text += body
    (out / f"{file}.yaml").write_text(text, encoding="utf-8")


def cls(file: str, title: str, run: str, exit_: int, hostile: str, *, raw: bool = False,
        show: str | None = None, **fields: str) -> None:
    values = dict(id=file, name="Plain", nation="US", ship="Plain One", note="a", notes="b")
    values.update({k: v if raw else q(v) for k, v in fields.items()})
    write(file, title, run, exit_, show or shown(hostile), CLASS.format(**values))


def scen(file: str, title: str, run: str, exit_: int, hostile: str, *,
         show: str | None = None, **fields: str) -> None:
    values = dict(id=file, name="Plain", date_label="13 November 1942", side_id="usn",
                  side="US", commander="C", briefing="B", ship="Hughes", victory="V")
    values.update({k: q(v) for k, v in fields.items()})
    write(file, title, run, exit_, show or shown(hostile), SCENARIO.format(**values))


E = "\x1b"
LIST = "check | list classes"

v = f"Evil{E}[31mRed{E}[0m"
cls("csi-colour-class-name", "CSI colours in a class name", LIST, 0, v, name=v)
v = f"Link{E}]8;;http://x{E}\\Click{E}]8;;{E}\\"
cls("osc8-hyperlink-ship-name", "OSC 8 hyperlink in a ship name, asked about with odds",
    f"odds --firer {q(v)[1:-1]} --target Hughes", 0, v, ship=v)
v = f"{E}]0;pwned\x07Title"
cls("osc0-window-title-class-name", "OSC 0 sets the window title, ended by BEL", LIST, 0, v,
    name=v)
v = f"Up{E}[2A{E}[2KGone"
cls("csi-cursor-moves-class-name", "CSI cursor up and erase line hide the lines above", LIST,
    0, v, name=v)
v = "Ding\x07Dong"
cls("bel-ship-name", "BEL in a ship name: odds names the firer that is not there",
    "odds --firer Ding --target Hughes", 2, v, ship=v)
v = "Safe\x08\x08\x08\x08Evil"
cls("backspace-class-name", "backspaces rub out what came before", LIST, 0, v, name=v)
v = "Harmless\rEVIL!!!"
cls("cr-overwrite-class-name", "CR returns to the start of the line and overwrites it", LIST,
    0, v, name=v)
v = "C1\x9b31mRed"
cls("c1-csi-class-name", "C1 CSI (one character, U+009B) sets a colour", LIST, 0, v, name=v)
v = "\x9d0;title\x9cC1"
cls("c1-osc-class-name", "C1 OSC and ST (U+009D, U+009C) set the window title", LIST, 0, v,
    name=v)
v = "Evil\u202eexe.txt"
cls("bidi-override-class-name", "a right-to-left override reverses what follows", LIST, 0, v,
    name=v)
v = "\u2066abc\u2069\u2067def\u2069\u202aghi\u202c"
cls("bidi-isolates-class-name", "bidi isolates and embeddings", LIST, 0, v, name=v)
v = "Nul\x00Name"
cls("nul-class-name", "NUL in a class name", LIST, 0, v, name=v)
v = "Bis\u200bmarck\ufeff"
cls("zero-width-class-name", "zero-width space and byte-order mark hidden in a name", LIST, 0,
    v, name=v)
v = "VT\x0bFF\x0cDEL\x7fESC\x1b"
cls("vt-ff-del-class-name", "vertical tab, form feed, DEL and a bare ESC", LIST, 0, v, name=v)
v = f"evil{E}[31m"
cls("csi-class-id", "CSI colours in a class id: a located problem quotes it", "check", 2, v,
    id=v)
v = f"{E}]8;;http://x{E}\\" + "x" * 500
cls("osc8-gun-note-too-long", "a hyperlink in a note too long: the problem quotes it",
    "check", 2, v, note=v, show=shown(v)[:30])
v = f"U{E}[5mS"
cls("csi-nation", "CSI (blink) in a nation code", "check", 2, v, nation=v)
v = f"na\x9bme{E}[1m"
cls("c1-extra-key", "a key with C1 and ESC in it: an unknown field", "check", 2, v,
    notes=f'b\n{q(v)}: 1', raw=True)
v = "hu\u202ell"
cls("bidi-extra-key-in-ship", "a bidi override in a ship's key", "check", 2, v,
    ship=f'Plain One, {q(v)}: x', raw=True)
v = f"{E}[31m"
cls("raw-esc-in-file", "a raw ESC in the file: YAML refuses it, located", "check", 2, v,
    name=f"Raw{v}Esc", raw=True, show="#x001B")
v = "\x9b"
cls("raw-c1-in-file", "a raw U+009B in the file: YAML refuses it, located", "check", 2, v,
    name=f"Raw{v}31m", raw=True, show="#x009B")
v = "\x07"
cls("raw-bel-in-file", "a raw BEL in the file: YAML refuses it, located", "check", 2, v,
    notes=f"ring{v}ring", raw=True, show="#x0007")
v = "Raw\u202eRLO"
cls("raw-bidi-in-file", "a raw right-to-left override (YAML allows it) in a name", LIST, 0, v,
    name=v, raw=True)
v = f"Night{E}[41mBattle"
scen("csi-scenario-name", "CSI colours in a scenario name", "check | list scenarios", 0, v,
     name=v)
v = f"13 Nov{E}]0;pwned\x07"
scen("osc0-date-label", "OSC 0 in the date label list prints", "check | list scenarios", 0, v,
     date_label=v)
v = f"us{E}[2J"
scen("csi-side-id", "erase-screen CSI in a side id: a located problem", "check", 2, v,
     side_id=v)
v = f"Gh{E}[8most"
scen("csi-scenario-ship-name", "a ship name the class does not have, with CSI", "check", 2, v,
     ship=v)
v = f"{E}]8;;http://x{E}\\Side" + "s" * 60
scen("osc8-side-name-too-long", "a hyperlink in a side name too long", "check", 2, v, side=v,
     show=shown(v)[:30])
v = f"Evil{E}[31mShip"
cls("odds-csi-ship-name", "CSI in the firer's name, asked about with odds",
    f"odds --firer {q(v)[1:-1]} --target Hughes", 0, v, ship=v)
v = "Cat\u202egolatac"
cls("catalog-bidi-class-name", "a bidi override in a class name, in the catalog",
    "catalog | list classes", 0, v, name=v)
v = f"cat{E}[31m"
cls("catalog-csi-class-id", "CSI in a class id: catalog reports the located problem",
    "catalog", 2, v, id=v)
print(len(list(out.glob("*.yaml"))), "cases")
