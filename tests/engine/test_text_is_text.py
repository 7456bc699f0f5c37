"""All user text is text: markup, entities and control characters print as themselves.

One build per data kind (a class, a scenario of each ruleset, a tables file of each
ruleset, a sprue, an event deck) with every text field of the file poisoned at once: an
``<img>`` tag (half of them at ``/etc/hostname``, half at a real PNG outside the data
folder, which would show up as an image if the tag were obeyed), ``<b>``, a bare ``&`` and
``<``, rich's ``[/]``, a BEL and an ANSI colour escape. Each value carries a tag
(``Zq7``) so the PDFs read back with pypdfium2 tell which field printed where.

The build must succeed, or refuse a value with a located message (the value is then
retried without its control characters, then restored: a field the schema will not take
is left out of the run, not the whole kit). Every field that prints must print literally
(or clipped with an ellipsis), with nothing drawn from the tag and no trace of the escape
sequence; and the fields a reader cannot do without must print.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
import yaml
from PIL import Image

from generator.core.errors import DataError
from generator.core.safetext import Trusted, clean, markup, text
from generator.kit.pipeline import BuildResult, build
from generator.kit.seam import KitOptions
from tests.paths import ROOT

NA_TABLES = ROOT / "generator/rulesets/naval_action/tables"
SA_TABLES = ROOT / "generator/rulesets/surface_action/tables"
NA_TEXT_TABLES = {"accuracy", "aa_results", "seas", "marker_faces"}
# Chart cells are result letters and chart columns ship types, not words.
SA_NOT_WORDS = re.compile(r"damage_charts\.\w+\.(rows|columns)\.|"
                          r"columns\.(gunfire|torpedo|torpedo_defaults)\.")
BAIT_SIZE = (7, 13)  # an unusual bitmap size: no page of a kit holds one by chance

# Keys whose values are identifiers, references, dates or choices, not text to print.
NOT_TEXT = {"kind", "ruleset", "id", "class", "date", "fitted", "commissioned", "lost",
            "nation", "type", "sea_state", "visibility", "time_of_day", "time", "scale",
            "start_time", "edge", "formation", "source", "unverified", "position", "mount",
            "orientation", "cut", "margin", "gutter", "bleed", "card_width", "card_height",
            "colour", "color", "fire_control", "groups", "width", "height", "size"}


def dump(data: object, path: Path) -> Path:
    """Write YAML that keeps every character (control characters as escapes)."""
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@dataclass
class Poisoned:
    """A document with its text fields poisoned, and how to undo each one."""

    data: Any
    bait: Path
    tags: dict[str, str] = field(default_factory=dict)
    """Tag -> dotted path of the field it marks."""
    originals: dict[str, str] = field(default_factory=dict)
    """Dotted path -> the value before poisoning."""

    def value(self, tag: str, controls: bool = True) -> str:
        source = "/etc/hostname" if int(tag[2:]) % 2 else "../bait.png"
        return (f'{tag}<img src="{source}"/><b>&<[/]' + ("\x07\x1b[31m" if controls else "")
                + "x")

    def printed(self, tag: str) -> str:
        """What the field must look like in the PDF text (whitespace removed)."""
        return re.sub(r"\s", "", self.value(tag, controls=False))

    def poison(self, skip: Callable[[str], bool] = lambda path: False) -> Poisoned:
        counter = iter(range(1, 10_000))

        def walk(node: Any, path: tuple[str, ...]) -> Any:
            if isinstance(node, dict):
                return {k: node[k] if k in NOT_TEXT else walk(node[k], (*path, str(k)))
                        for k in node}
            if isinstance(node, list):
                return [walk(item, (*path, str(i))) for i, item in enumerate(node)]
            if isinstance(node, str) and not skip(".".join(path)):
                tag = f"Zq{next(counter)}"
                self.tags[tag] = ".".join(path)
                self.originals[".".join(path)] = node
                return self.value(tag)
            return node

        self.data = walk(self.data, ())
        return self

    def relax(self, paths: set[str]) -> None:
        """Take the control characters out of these fields, or if gone, the poison."""
        by_path = {p: t for t, p in self.tags.items()}

        def walk(node: Any, path: tuple[str, ...]) -> Any:
            if isinstance(node, dict):
                return {k: walk(v, (*path, str(k))) for k, v in node.items()}
            if isinstance(node, list):
                return [walk(v, (*path, str(i))) for i, v in enumerate(node)]
            dotted = ".".join(path)
            if dotted in paths and dotted in by_path:
                tag = by_path[dotted]
                if node == self.value(tag):
                    return self.value(tag, controls=False)
                del self.tags[tag]
                return self.originals[dotted]
            return node

        self.data = walk(self.data, ())


def build_until_accepted(doc: Poisoned, write: Callable[[Poisoned], None],
                         run: Callable[[], BuildResult]) -> BuildResult:
    """Build; a located refusal of poisoned fields relaxes them and builds again."""
    refused = DataError([])
    for _ in range(8):
        write(doc)
        try:
            return run()
        except DataError as error:
            refused = error
            for problem in refused.problems:
                assert problem.line > 0 and problem.path, problem  # located, never vague
            # A refusal names the field, or quotes the value (a table refused whole).
            named = {doc.tags[t] for p in refused.problems
                     for t in re.findall(r"Zq\d+", p.message) if t in doc.tags}
            paths = {p.path for p in refused.problems} & set(doc.tags.values()) | named
            assert paths, refused.problems  # only what we poisoned is refused
            doc.relax(paths)
    raise AssertionError(f"the build refuses the data after every retry: {refused.problems}")


@dataclass
class Read:
    """The text of every page of a kit (whitespace removed) and its bait images."""

    text: str
    baits: int


def read_kit(folder: Path) -> Read:
    texts, baits = [], 0
    for path in sorted(folder.glob("*.pdf")):
        pdf = pdfium.PdfDocument(path)
        for page in pdf:
            texts.append(page.get_textpage().get_text_range())
            for obj in page.get_objects(max_depth=4):
                if obj.type == pdfium.raw.FPDF_PAGEOBJ_IMAGE:
                    baits += tuple(obj.get_px_size()) == BAIT_SIZE
        pdf.close()
    return Read(re.sub(r"\s", "", "".join(texts)), baits)


def occurrences(read: Read, tag: str) -> Iterator[str]:
    for m in re.finditer(re.escape(tag) + r"(?!\d)", read.text):
        yield read.text[m.start():m.start() + 120]


@dataclass(frozen=True)
class Kind:
    """One data kind: how to poison a file of it, build with it, and what must print."""

    name: str
    make: Callable[[Path, Path], tuple[Poisoned, Callable[[Poisoned], None],
                                       Callable[[], BuildResult]]]
    must_print: tuple[str, ...]


def _bait(tmp: Path) -> Path:
    """A PNG one folder above the build's working folder (``../bait.png`` from there)."""
    bait = tmp / "bait.png"
    Image.new("RGB", BAIT_SIZE, (255, 0, 0)).save(bait)
    return bait


def _class_kit(tmp: Path, bait: Path) -> tuple[Poisoned, Callable[[Poisoned], None],
                                               Callable[[], BuildResult]]:
    data = tmp / "data"
    data.mkdir()
    cls = yaml.safe_load((ROOT / "shipdata/classes/us/fletcher.yaml").read_text("utf-8"))
    cls.update(id="poison", unverified=[], ships=cls["ships"][:3])
    doc = Poisoned(cls, bait).poison()

    scen = yaml.safe_load(
        (ROOT / "shipdata/naval_action/scenarios/savo-island.yaml").read_text("utf-8"))
    scen["id"] = "poison-test"
    scen.pop("setup", None)  # it places ships this test takes out of the roster

    def write(d: Poisoned) -> None:
        # The class fights at Savo (status sheet, catalog, matchups, markers, rosters).
        dump(d.data, data / "poison.yaml")
        scen["sides"][1]["ships"][:] = [*scen["sides"][1]["ships"][:2],
                                        {"class": "poison", "name": d.data["ships"][0]["name"]}]
        dump(scen, data / "poison-test.yaml")

    return doc, write, lambda: build("poison-test", data=[data], out=tmp / "out")


def _scenario(ruleset: str, file: str, scenario_id: str,
              skip: Callable[[str], bool] | None = None) -> Callable[..., Any]:
    def make(tmp: Path, bait: Path) -> tuple[Poisoned, Callable[[Poisoned], None],
                                             Callable[[], BuildResult]]:
        data = tmp / "data"
        data.mkdir()
        scen = yaml.safe_load((ROOT / f"shipdata/{ruleset}/scenarios/{file}").read_text("utf-8"))
        # Ship names refer to the class's ships: the class (poisoned alike) names them. The
        # set-up names the roster's ships: it follows the roster (see ``write``).
        placed = re.compile(r"setup\.groups\.\d+\.ships\.\d+")
        roster = {s["id"]: [u["name"] for u in s.get("ships", s.get("units", []))]
                  for s in scen.get("sides", [])}
        placed_ships = [list(g["ships"]) for g in scen.get("setup", {}).get("groups", [])]
        doc = Poisoned(scen, bait).poison(
            skip=lambda path: placed.fullmatch(path) is not None or (
                skip(path) if skip else re.fullmatch(r"sides\.\d+\.ships\.\d+\.name", path)
                is not None))

        def write(d: Poisoned) -> None:
            # Each placed ship keeps naming her roster entry, poisoned or not.
            now = {s["id"]: [u["name"] for u in s.get("ships", s.get("units", []))]
                   for s in d.data.get("sides", [])}
            for group, ships in zip(d.data.get("setup", {}).get("groups", []), placed_ships,
                                    strict=True):
                side = group["side"]
                if side in roster and side in now:
                    group["ships"] = [now[side][roster[side].index(n)]
                                      if n in roster[side] else n for n in ships]
            dump(d.data, data / file)

        return doc, write, lambda: build(scenario_id, data=[data], out=tmp / "out")
    return make


def _tables(files: list[Path], scenario_id: str, keep: Callable[[str], bool] = lambda k: True,
            skip: Callable[[str], bool] = lambda path: False,
            name: str = "tables.yaml") -> Callable[..., Any]:
    def make(tmp: Path, bait: Path) -> tuple[Poisoned, Callable[[Poisoned], None],
                                             Callable[[], BuildResult]]:
        merged: dict[str, Any] = {}
        for path in files:
            merged.update({k: v for k, v in yaml.safe_load(path.read_text("utf-8")).items()
                           if keep(k)})
        doc = Poisoned(merged, bait).poison(skip)
        tables = tmp / name  # a file name is user text too (headings cite it)

        def write(d: Poisoned) -> None:
            dump(d.data, tables)

        return doc, write, lambda: build(scenario_id, out=tmp / "out",
                                         options=KitOptions(tables=tables))
    return make


def _sprue(tmp: Path, bait: Path) -> tuple[Poisoned, Callable[[Poisoned], None],
                                           Callable[[], BuildResult]]:
    from generator.kit.pipeline import build_markers

    sprue = yaml.safe_load(
        (ROOT / "generator/rulesets/surface_action/sprues/counters.yaml").read_text("utf-8"))
    doc = Poisoned(sprue, bait).poison()
    path = tmp / "sprue.yaml"

    def write(d: Poisoned) -> None:
        dump(d.data, path)

    return doc, write, lambda: build_markers("river-plate", out=tmp / "out",
                                             options=KitOptions(sprue=path))


def _events(tmp: Path, bait: Path) -> tuple[Poisoned, Callable[[Poisoned], None],
                                            Callable[[], BuildResult]]:
    from generator.rulesets.surface_action import events

    deck = yaml.safe_load((SA_TABLES / "events.yaml").read_text("utf-8"))
    deck["cards"] = deck["cards"][:4]
    for card in deck["cards"]:  # short, so the poisoned text still fits the card
        card.update(timing="Any phase.", effect="Reroll one die.")
    doc = Poisoned(deck, bait).poison()
    path = tmp / "events.yaml"

    def write(d: Poisoned) -> None:
        dump(d.data, path)

    def run() -> BuildResult:
        with pytest.MonkeyPatch.context() as mp:  # a kit reads the one bundled deck
            mp.setattr(events, "DECK_PATH", path)
            return build("river-plate", out=tmp / "out")
    return doc, write, run


KINDS = [
    Kind("class", _class_kit, ("name", "ships.0.name")),
    Kind("naval-action scenario", _scenario("naval_action", "savo-island.yaml", "savo-island"),
         ("name", "date_label", "sides.0.name", "sides.1.commander", "sides.0.briefing",
          "sides.1.setup", "sides.0.special_rules.0", "starting_conditions",
          "special_rules.0", "victory")),
    Kind("surface-action scenario",
         _scenario("surface_action", "river-plate.yaml", "river-plate"),
         ("name", "date_label", "sides.0.name", "sides.1.commander", "sides.0.briefing",
          "starting_conditions", "special_rules.0", "victory", "weapons.guns.8in.name")),
    Kind("modern-naval scenario",
         _scenario("modern_naval", "sheffield-1982.yaml", "sheffield-1982"),
         ("name", "date_label", "sides.0.name", "sides.0.setup", "sides.1.briefing",
          "starting_conditions", "special_rules.0", "victory", "sides.1.units.0.name")),
    Kind("naval-action tables", _tables([NA_TABLES / "action-card.yaml",
                                         NA_TABLES / "markers.yaml"], "savo-island",
                                        # the tables that carry words (all of them at
                                        # once, poisoned, would overflow the card's back)
                                        keep=lambda key: key in NA_TEXT_TABLES,
                                        name="tables<b>&.yaml"),
         ("accuracy.modifiers.0.label",)),
    Kind("surface-action tables", _tables([SA_TABLES / "charts.yaml"], "river-plate",
                                          skip=lambda path: SA_NOT_WORDS.match(path) is not None),
         ("damage_charts.gunfire.title", "random_movement.title", "random_movement.rows.0.result",
          "results.M", "columns.torpedo_default_note")),
    Kind("rule-27 scenario",
         _scenario("rule27", "mediterranean-1940.yaml", "mediterranean-1940"),
         ("name", "sides.0.name", "sides.0.forces.0.name")),
    # Fleet bases are names routes refer to: poisoned alike they would no longer match.
    Kind("naval-warfare campaign",
         _scenario("naval_warfare", "balance-1942.yaml", "balance-1942",
                   skip=lambda path: re.fullmatch(r"(nations\.\d+\.bases\.\d+(\.name)?|"
                                                  r"routes\.\d+\.base)", path) is not None),
         ("name", "note", "nations.0.name", "teams.0.name", "teams.0.alliance",
          "routes.0.name", "nations.0.bases.0.note")),
    Kind("sprue", _sprue, ("regions.0.title",)),
    Kind("event deck", _events, ("cards.0.timing", "cards.0.effect")),  # titles are short
]


@pytest.mark.parametrize("kind", KINDS, ids=[k.name for k in KINDS])
def test_every_text_field_prints_as_text(kind: Kind, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    doc, write, run = kind.make(tmp_path, _bait(tmp_path))
    result = build_until_accepted(doc, write, run)
    read = read_kit(result.folder)
    assert read.baits == 0  # no <img> tag was obeyed
    leftovers = [read.text[max(0, m.start() - 60):m.end()]
                 for m in re.finditer(re.escape("[31m"), read.text)]
    assert not leftovers, leftovers  # escape sequences dropped whole, not half
    printed = set()
    for tag, path in doc.tags.items():
        want = doc.printed(tag)
        for seen in occurrences(read, tag):
            clipped = seen.split("…")[0] if "…" in seen else None
            assert seen.startswith(want) or (clipped is not None and want.startswith(clipped)), (
                f"{path} printed as {seen!r}, expected {want!r}")
            printed.add(path)
    missing = [p for p in kind.must_print if p not in printed]
    assert not missing, f"never printed literally: {missing}; printed: {sorted(printed)}"


@pytest.mark.parametrize(("raw", "cleaned"), [
    ("Tribal\x1b[31m red\x1b[0m", "Tribal red"),     # colour on, colour off
    ("Tribal\x1b[…", "Tribal…"),                     # a sequence clipped short
    ("a\x1b]0;title\x07b", "ab"),                     # an OSC title sequence
    ("bell\x07 nul\x00 del\x7f c1\x85", "bell nul del c1"),
    ("tab\tand\nnewline", "tab\tand\nnewline"),       # kept: paragraphs read them as space
    ("Киров 2 · Chōkai", "Киров 2 · Chōkai"),         # letters of any script untouched
])
def test_clean_drops_control_characters_only(raw: str, cleaned: str) -> None:
    assert clean(raw) == cleaned


def test_markup_escapes_values_and_keeps_its_own_tags() -> None:
    name = 'Alpha<img src="/etc/hostname"/> & <b>'
    assert text(name) == 'Alpha&lt;img src="/etc/hostname"/&gt; &amp; &lt;b&gt;'
    assert (markup("<b>{name}</b> ({n:.1f})", name=name, n=2.25)
            == "<b>Alpha&lt;img src=\"/etc/hostname\"/&gt; &amp; &lt;b&gt;</b> (2.2)")
    assert markup("{} and {}", Trusted("<i>x</i>"), "<i>") == "<i>x</i> and &lt;i&gt;"


def test_an_obeyed_img_tag_would_be_seen(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The image check can fail: markup left unescaped draws the bait and is counted."""
    from generator.pages.canvasdoc import CanvasDoc

    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    _bait(tmp_path)
    for value, baits in (('<img src="../bait.png"/>', 1), (text('<img src="../bait.png"/>'), 0)):
        doc = CanvasDoc("a4", "t", "f")
        doc.paragraph(f"Alpha {value}")
        pdf, _ = doc.finish()
        folder = tmp_path / f"kit{baits}"
        folder.mkdir()
        (folder / "k.pdf").write_bytes(pdf)
        assert read_kit(folder).baits == baits
