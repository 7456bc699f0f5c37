"""Terminal output is inert, and the last crashes are located errors (issue 35, items 7-8).

Item 7: ESC, CSI, OSC, C1 controls, BEL, backspace, CR, NUL and bidi overrides in any user
text (a class or ship name, an id, a key, a file name, a command-line argument) reach the
terminal as visible escapes (``\\x1b``, ``\\u202e``), never as the characters themselves,
while quarterdeck's own colours still work. The hostile corpus in
``tests/hostile_corpus/terminal/`` (its header format: ``make.py`` there) is run through
``check``, ``list``, ``catalog`` and ``odds``.

Item 8: a data file whose name is not UTF-8 (``check``, ``list``), ``convert`` on an old
file it had not validated (``armor: abc``) and symbolic-link loops in a ``watch``ed folder
end in a located message, never a traceback.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli.main import main
from generator.core.terminal import inert, user_console
from tests.engine.test_shiplib import OLD_NA as SHIPLIB_OLD_NA
from tests.hostile import run_cli
from tests.paths import ROOT, TESTS

CORPUS = TESTS / "hostile_corpus" / "terminal"
CASES = sorted(CORPUS.glob("*.yaml"))

ACTIVE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b\u200e\u200f\u061c\u202a-\u202e"
                    "\u2066-\u2069\ufeff]")
"""Characters that may never reach the terminal from user text (tab and newline may)."""


def assert_inert(output: str) -> None:
    """No control, bidi or zero-width character is in ``output``."""
    found = ACTIVE.findall(output)
    assert not found, (found[:5], output[-2000:])


def header(path: Path) -> dict[str, str]:
    """The case's ``# key: value`` header lines."""
    return dict(re.findall(r"^# (\w+): (.*)$", path.read_text(encoding="utf-8"), re.M))


def command(words: list[str], data: Path, out: Path) -> list[str]:
    """The command line for one ``# run:`` entry of a case."""
    if words[0] == "check":
        return ["check", str(data)]
    if words[0] == "list":
        return ["list", words[1], "--data", str(data)]
    if words[0] == "catalog":
        return ["catalog", "--data", str(data), "--out", str(out)]
    assert words[0] == "odds", words
    # odds arguments are written in YAML double-quoted escapes (``\e``), read back here.
    return ["odds", *(yaml.safe_load(f'"{w}"') for w in words[1:]), "--data", str(data)]


@pytest.fixture(autouse=True)
def wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """rich draws tables 250 columns wide, so an escaped name is never folded."""
    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 20
    for path in CASES:
        found = header(path)
        assert {"case", "run", "exit", "shows"} <= set(found), path
        assert ("says" in found) == (found["exit"] == "2"), path


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_hostile_text_reaches_the_terminal_escaped(path: Path, tmp_path: Path) -> None:
    case = header(path)
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(path, data / path.name)
    shown = []
    for number, entry in enumerate(case["run"].split(" | ")):
        code, stdout, stderr = run_cli(command(entry.split(), data, tmp_path / "out"))
        assert_inert(stdout)
        assert_inert(stderr)
        if number == 0:  # the first command ends as the case says
            assert code == int(case["exit"]), (stdout, stderr)
            if code == 2:
                says = case["says"].replace("{file}", str(data / path.name))
                assert stderr.splitlines()[0] == says
        shown.append(stdout + stderr)
    assert any(case["shows"] in text for text in shown), (case["shows"], shown)


# --- command-line arguments: click's own errors and quarterdeck's usage errors -----------

@pytest.mark.parametrize(("args", "line"), [
    (["ev\x1b[31mil"], "Error: No such command 'ev\\x1b[31mil'."),
    (["check", "--bo\x9bgus"], "Error: No such option '--bo\\x9bgus'."),
    (["list", "ships\x1b]0;t\x07"], "Error: Invalid value for '[all|rulesets|scenarios|"
     "classes]': 'ships\\x1b]0;t\\x07' is not one of 'all', 'rulesets', 'scenarios', "
     "'classes'."),
    (["list", "classes", "--nation", "U\u202eS"],
     "error: --nation: no class of nation 'U\\u202eS'"),
    (["build", "night\x1b[2J\x08"], None),
    (["build", "--seed", "1\x1b]0;t\x07"], "Error: Invalid value for '--seed': found "
     "'1\\x1b]0;t\\x07', expected a whole number from 0 to 999,999,999 or 'random'"),
    (["odds", "--firer", "Nobody\x07", "--target", "Hughes"],
     "error: no ship 'Nobody\\x07' in the library (--firer)"),
])
def test_hostile_arguments_are_shown_escaped(args: list[str], line: str | None) -> None:
    code, stdout, stderr = run_cli(args)
    assert code == 2
    assert_inert(stdout + stderr)
    if line is not None:
        assert any(shown.startswith(line) for shown in stderr.splitlines()), stderr
    else:
        assert "night\\x1b[2J\\x08" in stderr, stderr


# --- file names -------------------------------------------------------------------------

PLAIN = (CORPUS / "csi-colour-class-name.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("name", "shown"), [
    ("evil\x1b[31m.yaml", "evil\\x1b[31m"),
    ("rlo\u202elmay.yaml", "rlo\\u202elmay"),
    ("bell\x07.yaml", "bell\\x07"),
])
def test_a_hostile_file_name_is_shown_escaped(tmp_path: Path, name: str, shown: str) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / name).write_text(PLAIN, encoding="utf-8")
    for args in (["check", str(data)], ["list", "classes", "--data", str(data)]):
        code, stdout, stderr = run_cli(args)
        assert code == 2
        assert_inert(stdout + stderr)
        assert stderr.splitlines()[0] == (
            f"{data}/{shown}.yaml:6:5: id: found 'csi-colour-class-name', expected "
            f"'{shown}' (the file name without .yaml)")


def test_a_file_name_that_is_not_utf8_is_a_located_problem(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    with open(os.path.join(os.fsencode(data), b"bad\xff\x1b.yaml"), "wb") as handle:
        handle.write(PLAIN.encode())
    expected = (f"{data}/bad\\xff\\x1b.yaml: found a file or folder name that is not UTF-8 "
                "text, expected a name in UTF-8 (a class or scenario file is named by its "
                "id); rename it")
    for args in (["check", str(data)], ["list", "classes", "--data", str(data)],
                 ["list", "--data", str(data)]):
        code, stdout, stderr = run_cli(args)
        assert (code, stdout) == (2, "")
        assert stderr.splitlines() == [expected, "error: 1 problem in the data"]


def test_a_data_folder_named_in_another_encoding_still_loads(tmp_path: Path) -> None:
    """Only names below the data folder must be UTF-8: the user's folder may be anything."""
    data = os.fsdecode(os.path.join(os.fsencode(tmp_path), b"donn\xe9es"))
    os.mkdir(data)
    Path(data, "plain-class.yaml").write_text(
        PLAIN.replace("id: csi-colour-class-name", "id: plain-class"), encoding="utf-8")
    code, stdout, _ = run_cli(["list", "classes", "--data", data])
    assert code == 0 and "plain-class" in stdout
    code, stdout, _ = run_cli(["check", data])
    assert code == 0 and stdout.startswith("ok: ")


# --- quarterdeck's own colours still work -------------------------------------------------

SGR = re.compile(r"\x1b\[[0-9;]*m")


def test_own_colours_survive_while_user_text_is_escaped(tmp_path: Path) -> None:
    # A folder name with ESC in it: the 'lost before the scenario' warning names the file.
    data = tmp_path / "ev\x1b]0;title\x07il"
    data.mkdir()
    text = (CORPUS / "csi-scenario-name.yaml").read_text(encoding="utf-8")
    (data / "csi-scenario-name.yaml").write_text(text.replace("name: Hughes", "name: Sims"),
                                                 encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(data)], color=True)
    assert result.exit_code == 0, result.output
    warning = next(line for line in result.stderr.splitlines() if "Sims was lost" in line)
    assert warning.startswith("\x1b[33m\x1b[22mwarning:\x1b[0m ")  # quarterdeck's yellow
    assert "ev\\x1b]0;title\\x07il" in warning
    assert_inert(SGR.sub("", result.stdout + result.stderr))
    (data / "csi-scenario-name.yaml").write_text(text.replace("id: csi-scenario-name",
                                                              'id: "x\\e[5m"'),
                                                 encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(data)], color=True)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == "\x1b[31m\x1b[1merror:\x1b[0m 1 problem in the data"
    assert "id: found 'x\\x1b[5m'" in result.stderr
    assert_inert(SGR.sub("", result.stderr))


def test_an_error_message_is_inert_wherever_it_is_printed() -> None:
    from generator.core.errors import UsageError

    # A ruleset's command that prints f"error: {exc}" itself gets it escaped too.
    assert str(UsageError("no class 'a\x1b[31m\u202e'")) == "no class 'a\\x1b[31m\\u202e'"
    code, stdout, stderr = run_cli(["merchant", "--raiders", "4 ev\x1b[31mil"])
    assert code == 2
    assert stderr.startswith("error: --raiders: found unit 'ev\\x1b[31mil' in "
                             "'4 ev\\x1b[31mil', expected a unit type: ")
    assert_inert(stdout + stderr)


def test_a_ruleset_command_that_echoes_user_text_prints_it_inert(tmp_path: Path) -> None:
    """modern-odds prints the tables' labels with click.echo; a --tables file sets them."""
    rules = yaml.safe_load((ROOT / "generator" / "rulesets"
                            / "modern_naval" / "tables" / "rules.yaml").read_text("utf-8"))
    block = rules["basic_damage"]
    block["levels"][1]["label"] = "Light\x1b]0;t\x07\x1b[31mDamage\u202e"
    tables = tmp_path / "tables.yaml"
    tables.write_text(yaml.safe_dump({"basic_damage": block}), encoding="utf-8")
    code, stdout, stderr = run_cli(["modern-odds", "--kind", "gun", "--tables", str(tables)])
    assert code == 0, stderr
    assert "  Light\\x1b]0;t\\x07Damage\\u202e 30.0%" in stdout.splitlines()  # CSI: stripped
    assert_inert(stdout + stderr)
    # On a terminal, colours (SGR) pass, as the command's own would; nothing else does.
    result = CliRunner().invoke(main, ["modern-odds", "--kind", "gun", "--tables", str(tables)],
                                color=True)
    assert "  Light\\x1b]0;t\\x07\x1b[31mDamage\\u202e 30.0%" in result.stdout.splitlines()


def test_an_inert_stream_keeps_colours_only() -> None:
    import io

    from generator.core.terminal import InertStream

    target = io.StringIO()
    stream = InertStream(target)
    stream.write("\x1b[1;31mred\x1b[0m \x1b]8;;http://x\x1b\\a\x1b[2J\x9b1m\r\n\tok")
    assert target.getvalue() == (
        "\x1b[1;31mred\x1b[0m \\x1b]8;;http://x\\x1b\\a\\x1b[2J\\x9b1m\\r\n\tok")
    with pytest.raises(TypeError, match=r"^write\(\) argument must be str, not bytes$"):
        stream.write(b"\x1b[2J")  # type: ignore[arg-type]
    assert not hasattr(stream, "buffer")


def test_paths_in_notes_and_results_are_escaped(tmp_path: Path) -> None:
    data = tmp_path / "ev\x1b]0;t\x07il"
    data.mkdir()
    shutil.copy(ROOT / "shipdata/classes/us/sims.yaml", data)
    shown = f"{tmp_path}/ev\\x1b]0;t\\x07il"
    code, stdout, stderr = run_cli(["check", str(data)])  # tell: note lines
    assert code == 0
    assert stderr.splitlines()[0] == (f"note: {shown}/sims.yaml: replaces the bundled "
                                      "ship-class 'sims' (naval-action)")
    assert_inert(stdout + stderr)
    code, stdout, stderr = run_cli(["new-class", "my-dd", "--out", str(data)])  # say
    assert (code, stderr) == (0, "")
    assert stdout == (f"wrote {shown}/my-dd.yaml; replace every '<fill in: ...>', then: "
                      f"quarterdeck check {shown}/my-dd.yaml\n")


def test_list_keeps_rich_styles_on_a_terminal(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    shutil.copy(CORPUS / "osc0-window-title-class-name.yaml", data)
    monkeypatch.setenv("FORCE_COLOR", "1")
    code, stdout, _ = run_cli(["list", "classes", "--data", str(data)])
    assert code == 0
    assert SGR.search(stdout)  # the table's own styles (title, header) are drawn
    assert "\\x1b]0;pwned\\x07Title" in stdout
    assert_inert(SGR.sub("", stdout))


# --- the function and the console ---------------------------------------------------------

def test_inert_escapes_what_acts_on_a_terminal_and_nothing_else() -> None:
    assert inert("Chōkai Марат 大和 ش\u200cا 👨\u200d👩 a\tb\nc \\x1b") == (
        "Chōkai Марат 大和 ش\u200cا 👨\u200d👩 a\tb\nc \\x1b")
    assert inert("\x1b[31m\x9b\x00\x07\x08\r\x7f\x85") == (
        "\\x1b[31m\\x9b\\x00\\x07\\x08\\r\\x7f\\x85")
    assert inert("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c") == (
        "\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061c")
    assert inert("\u200b\ufeff\u2028\u2029\U000e0041") == (
        "\\u200b\\ufeff\\u2028\\u2029\\U000e0041")
    assert inert("bad\udcff.yaml") == "bad\\xff.yaml"  # an undecodable file-name byte
    assert inert("a\tb\nc", keep="") == "a\\tb\\nc"
    hostile = "".join(chr(c) for c in range(0x250)) + "\u202e\u2066\udc80"
    once = inert(hostile)
    assert inert(once) == once and not ACTIVE.search(once)


def test_the_console_escapes_strings_and_text_objects_alike() -> None:
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    console = user_console(force_terminal=True, color_system="standard", width=100,
                           highlight=False)
    table = Table("name", "nation")
    table.add_row(escape("Evil\x1b[31m[bold]x[/]"), "US")
    name = escape("Ship\x1b]0;t\x07 :fire:")
    with console.capture() as captured:
        console.print(f"[bold]{name}[/]")
        console.print(table)
        console.print(Text("Link\x1b]8;;http://x\x1b\\C\u202e", style="italic"))
    out = captured.get()
    assert "\x1b[1mShip\\x1b]0;t\\x07 :fire:\x1b[0m" in out  # rich's bold kept
    # Escaped before rich measured it: the column is as wide as what it shows.
    assert "│ Evil\\x1b[31m[bold]x[/] │ US     │" in out
    assert "\x1b[3mLink\\x1b]8;;http://x\\x1b\\C\\u202e\x1b[0m" in out
    assert_inert(SGR.sub("", out))


def test_the_console_lays_out_text_as_escaped() -> None:
    from rich.segment import Segment
    from rich.text import Text

    class Raw:
        """A renderable that hands rich its segments as they are."""

        def __rich_console__(self, console: object, options: object) -> object:
            yield Segment("raw\x1b[31m\u202e")

    console = user_console(width=20, highlight=False)
    with console.capture() as captured:
        console.print(Text("\x1b" * 10))  # 40 characters once escaped: two lines of 20
        console.print(Raw())
    assert captured.get() == "\\x1b" * 5 + "\n" + "\\x1b" * 5 + "\nraw\\x1b[31m\\u202e"


# --- convert on an old file it has not validated -------------------------------------------

# test_shiplib's old NAVAL ACTION file (which converts) with a value it never checked.
OLD_NA = SHIPLIB_OLD_NA.replace("armor: {belt_in: 5, deck_in: 2, factor: 4}", "armor: abc")
assert OLD_NA != SHIPLIB_OLD_NA
OLD_SA = """kind: ship-class
ruleset: surface-action
id: my-cruiser
name: My Destroyer
nation: JP
type: DD
ships:
  - {name: First Ship, commissioned: 1940-01-01}
facts: abc
guns:
  - {weapon: 5in, factors: 2-6-4, role: main}
size: 3/2
armor: 1
fire_control: regular
damage_control: 3
sources: ["a book"]
"""


@pytest.mark.parametrize(("text", "line"), [
    (OLD_NA, "10:8: armor: found 'abc', expected a mapping of keys to values"),
    (OLD_NA.replace("armor: abc", "armor: {belt_in: 1}").replace("guns:\n", "guns:\n  - 7\n"),
     "13:5: guns.0: found 7, expected a mapping of keys to values"),
    (OLD_SA, "9:8: facts: found 'abc', expected a mapping of keys to values"),
])
def test_convert_refuses_an_invalid_old_file_at_its_place(tmp_path: Path, text: str,
                                                          line: str) -> None:
    path = tmp_path / "my-cruiser.yaml"
    path.write_text(text, encoding="utf-8")
    code, stdout, stderr = run_cli(["convert", str(path)])
    assert (code, stdout) == (2, "")
    assert stderr.splitlines()[0] == f"{path}:{line}"
    assert path.read_text(encoding="utf-8") == text
    assert not (tmp_path / "my-cruiser.yaml.bak").exists()


# --- watch with symbolic-link loops ------------------------------------------------------

def looping_folder(tmp_path: Path) -> Path:
    """A folder holding one class file and links that loop, to themselves and each other."""
    folder = tmp_path / "mine"
    (folder / "sub").mkdir(parents=True)
    source = ROOT / "shipdata/classes/us/sims.yaml"
    shutil.copy(source, folder / "sims.yaml")
    os.symlink("loop", folder / "loop")
    os.symlink("a.yaml", folder / "b.yaml")
    os.symlink("b.yaml", folder / "a.yaml")
    os.symlink(".", folder / "self")  # a folder link back to the folder: never entered
    os.symlink("../sub", folder / "sub" / "up")
    return folder


def test_watch_skips_links_that_loop_with_a_warning(tmp_path: Path) -> None:
    folder = looping_folder(tmp_path)
    png = tmp_path / "p.png"
    code, stdout, stderr = run_cli(["watch", str(folder), "--once", "--png", str(png),
                                    "--dpi", "36"])
    assert code == 0, stderr
    assert stderr.splitlines() == [
        f"warning: {folder / name}: skipped a symbolic link that leads back to itself; "
        "remove it" for name in ("a.yaml", "b.yaml", "loop")]
    assert stdout.startswith(f"wrote {png} (")
    assert png.read_bytes().startswith(b"\x89PNG")


def test_the_watcher_notices_a_new_loop_once(tmp_path: Path) -> None:
    from generator.kit.watch import LOOP, Watcher, snapshot

    folder = looping_folder(tmp_path)
    # With something to ignore, every path is resolved: a loop once failed there.
    seen = snapshot(folder, ignore=(folder / "preview.png",))
    assert seen[str(folder / "loop")] == LOOP and str(folder / "sims.yaml") in seen
    assert not any("self" in path or "up" in path for path in seen)
    watcher = Watcher(folder, lambda: ["wrote x"])
    shown = []
    watcher.run(shown.append, iterations=2, sleep=lambda _: os.symlink(
        "ring", folder / "ring") if not (folder / "ring").is_symlink() else None)
    assert [o.warnings for o in shown] == [
        [f"{folder / n}: skipped a symbolic link that leads back to itself; remove it"
         for n in ("a.yaml", "b.yaml", "loop")],
        [f"{folder / 'ring'}: skipped a symbolic link that leads back to itself; remove it"]]


def test_a_found_value_shows_each_hidden_character_as_its_yaml_escape() -> None:
    """``validation.describe`` escaped U+202E as ``\\x202e`` (not what YAML reads back)."""
    from generator.data.validation import describe

    assert describe("a\u202eb\x1bc\n") == "'a\\u202eb\\x1bc\\n'"


def test_a_data_folder_that_is_a_looping_link_says_so(tmp_path: Path) -> None:
    """``check LOOP`` said 'no such file or folder' for a link to itself."""
    (tmp_path / "loop").symlink_to("loop")
    code, _, err = run_cli(["check", str(tmp_path / "loop")])
    assert code == 2
    assert err.splitlines()[0] == (f"{tmp_path / 'loop'}: found a symbolic link that loops or "
                                   "leads nowhere, expected a data folder")


def test_convert_never_overwrites_an_existing_backup(tmp_path: Path) -> None:
    """``convert FILE`` wrote FILE.bak over whatever had that name (a user's own backup)."""
    path = tmp_path / "my-cruiser.yaml"
    path.write_text(SHIPLIB_OLD_NA, encoding="utf-8")
    (tmp_path / "my-cruiser.yaml.bak").write_text("the user's own backup", encoding="utf-8")
    code, out, _ = run_cli(["convert", str(path)])
    assert code == 0
    assert (tmp_path / "my-cruiser.yaml.bak").read_text() == "the user's own backup"
    assert (tmp_path / "my-cruiser.yaml.bak.1").read_text() == SHIPLIB_OLD_NA
    assert out == (f"wrote {path} (the old file is {path}.bak.1); check it with: "
                   f"quarterdeck check {path}\n")
