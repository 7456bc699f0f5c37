"""The clubs' event page and the designers' class editor.

Both take a YAML file typed in or uploaded, put it in a folder of the server's own
under a name the server chooses (``event.yaml``; ``<id>.yaml`` for a class, its id as
strict as ``new-class`` wants it), and hand it to the same checks as the command line:
the event to ``load_event`` (listing its tables before anything is built) and then to
``quarterdeck event`` as a job; the class to ``quarterdeck check`` and
``quarterdeck preview``, whose messages come back word for word, located in the file.
"""

from __future__ import annotations

import base64
import datetime
import re
import shutil
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
from flask import Flask, Response, abort, jsonify, redirect, render_template, request, url_for

from generator.web.forms import option_line
from generator.web.jobs import QUARTERDECK, JobRefused, Jobs, command_environment
from generator.web.library import Gallery

MAX_FILE = 256 * 1024
"""The largest event or class file taken, in bytes."""
MAX_LOGO = 128 * 1024
"""The largest club logo taken with an event file, in bytes."""
_LOGO_LINE = re.compile(r"^logo:[ \t]*(['\"]?)([^\n#'\"]{1,200}?)\1[ \t]*(#.*)?$", re.M)
_LOGO_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,79}\.(png|svg)$", re.I)
"""A logo name the server writes an upload under: a plain file name, nothing more."""
CHECK_SECONDS = 60.0
"""How long a check or a preview may take before it is stopped."""
COMPONENTS = ("status", "marker", "counter", "card")
"""What a class's preview may show: its status sheet, marker, counters, catalog card."""
_CLASS_ID = re.compile(r"^id:\s*['\"]?([a-z0-9][a-z0-9-]{0,59})['\"]?\s*(#.*)?$", re.M)
_CHECKS = threading.BoundedSemaphore(2)
"""At most two checks or previews run at once."""


def register(app: Flask, jobs: Jobs, gallery: Gallery, data: Sequence[Path],
             root: click.Group) -> None:
    """Add the event page and the class editor to ``app`` (``root``: the commands)."""
    scratch = jobs.root.parent / "web-scratch"

    def command(name: str) -> click.Command:
        """The ``quarterdeck`` command called ``name`` (its options spell the line)."""
        found = root.get_command(click.Context(root), name)
        assert found is not None, name
        return found

    @app.route("/event", methods=["GET", "POST"])
    def event() -> Any:
        """The event page: its file, the tables it makes (plan) or its job (build)."""
        text = _posted_text() if request.method == "POST" else _example_event(gallery)
        logo, problem = _posted_logo(text) if request.method == "POST" else (None, None)
        # The browser forgets a chosen file when the plan's page loads, so the page keeps
        # the logo's bytes in a hidden field for the build that follows.
        kept = {"logo_name": logo[0], "logo_data": base64.b64encode(logo[1]).decode()} \
            if logo else {}
        if problem is not None:
            return render_template("event.html", text=text, plan=[], problems=[problem],
                                   logo=kept), 400
        if request.method == "GET" or request.form.get("action") != "build":
            plan, problems = _plan(text, data, scratch, logo) if request.method == "POST" \
                else ([], [])
            return render_template("event.html", text=text, plan=plan, problems=problems,
                                   logo=kept)
        job_id, folder = jobs.folder()
        (folder / "event.yaml").write_text(text, encoding="utf-8")
        if logo:
            (folder / logo[0]).write_bytes(logo[1])
        argv = option_line(command("event"), {"out": ".", "data": [str(d) for d in data]})
        try:
            job = jobs.start(job_id, folder, _event_title(text), "event",
                             [*argv, "--", "event.yaml"],
                             inputs=frozenset({"event.yaml", *([logo[0]] if logo else [])}))
        except JobRefused as exc:
            return render_template("event.html", text=text, plan=[], problems=[str(exc)],
                                   logo=kept), 400
        return redirect(url_for("job_page", job_id=job.id), code=303)

    @app.get("/class")
    def class_editor() -> str:
        """The class editor, starting from ``new-class``'s scaffold."""
        return render_template("class.html", text=_example_class(), components=COMPONENTS,
                               rulesets=gallery.suggestions().get("ruleset", []))

    @app.post("/class/check")
    def class_check() -> Response:
        """``quarterdeck check`` of the posted class: its lines and status."""
        text = _posted_text()
        with _scratch(scratch, text) as (folder, name):
            if name is None:
                return jsonify({"ok": False, "lines": [_no_id(text)], "status": 2})
            status, out, err = _quarterdeck(folder, ["check", "--", name])
        return jsonify({"ok": status == 0, "status": status,
                        "lines": _lines(err) + _lines(out)})

    @app.post("/class/preview")
    def class_preview() -> Response:
        """``quarterdeck preview`` of the posted class: a PNG and any lines."""
        text = _posted_text()
        component = request.form.get("component", "status")
        if component not in COMPONENTS:
            abort(400, f"found component '{component[:40]}', expected one of "
                       f"{', '.join(COMPONENTS)}")
        ruleset = request.form.get("ruleset", "")
        known = gallery.suggestions().get("ruleset", [])
        if ruleset and ruleset not in known:
            abort(400, f"found ruleset '{ruleset[:40]}', expected one of {', '.join(known)}")
        with _scratch(scratch, text) as (folder, name):
            if name is None:
                abort(400, "found no id, expected 'id: ' and a lowercase id")
            class_id = name.removesuffix(".yaml")
            asked = {"kind": component, "png": "preview.png", "dpi": "100", "data": name}
            if ruleset:
                asked["ruleset"] = ruleset
            status, out, err = _quarterdeck(folder, [
                "preview", *option_line(command("preview"), asked), "--", class_id])
            png = (folder / "preview.png").read_bytes() \
                if status == 0 and (folder / "preview.png").is_file() else b""
        return jsonify({"ok": status == 0, "lines": _lines(err) + _lines(out),
                        "png": base64.b64encode(png).decode() if png else ""})


def _posted_text() -> str:
    """The YAML a form sent: an uploaded file if there is one, else the text field."""
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        raw: bytes = upload.read(MAX_FILE + 1)
    else:
        raw = request.form.get("text", "").encode("utf-8")
    if len(raw) > MAX_FILE:
        abort(413, f"found a file over {MAX_FILE // 1024} KB, expected at most that")
    return str(raw.decode("utf-8", "replace")).replace("\r\n", "\n")


def _posted_logo(text: str) -> tuple[tuple[str, bytes] | None, str | None]:
    """The club logo sent with an event file, under the name its ``logo:`` line gives.

    Returns the name and bytes (None when no logo came), or a located problem. The name
    is the event file's own, so ``quarterdeck event`` finds the logo where the file says;
    a name that is not a plain ``.png``/``.svg`` file name is not written, and the event
    check then says what it expected of it.
    """
    too_big = f"logo: found a file over {MAX_LOGO // 1024} KB, expected at most that"
    upload = request.files.get("logo")
    if upload is not None and upload.filename:
        raw: bytes = upload.read(MAX_LOGO + 1)
    else:
        kept = request.form.get("logo_data", "")
        if len(kept) > (MAX_LOGO + 2) // 3 * 4:  # base64 of the largest logo taken
            return None, too_big
        try:
            raw = base64.b64decode(kept, validate=True)
        except ValueError:
            raw = b""
    if not raw:
        return None, None
    if len(raw) > MAX_LOGO:
        return None, too_big
    named = _LOGO_LINE.search(text)
    if named is None:
        return None, ("event.yaml:1:1: logo: found an uploaded logo but no 'logo:' line, "
                      "expected 'logo: FILE.png' (or .svg) naming it")
    name = named.group(2).strip()
    return ((name, raw) if _LOGO_NAME.match(name) else None), None


class _scratch:  # noqa: N801 - used as a context manager, like a function
    """A fresh folder holding the class as ``<id>.yaml`` (name None without an id)."""

    def __init__(self, root: Path, text: str) -> None:
        """A scratch folder under ``root`` for ``text`` (made on entry)."""
        self.root, self.text = root, text
        self.folder: Path | None = None

    def __enter__(self) -> tuple[Path, str | None]:
        """Make the folder and write the class into it under its id."""
        import secrets

        self.folder = self.root / secrets.token_hex(8)
        self.folder.mkdir(parents=True)
        found = _CLASS_ID.search(self.text)
        name = f"{found.group(1)}.yaml" if found else None
        if name is not None:
            (self.folder / name).write_text(self.text, encoding="utf-8")
        return self.folder, name

    def __exit__(self, *exc: object) -> None:
        """Remove the folder and everything in it."""
        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)


def _no_id(text: str) -> str:
    """The located message for a class file whose id the editor cannot name a file by."""
    for number, line in enumerate(text.split("\n"), 1):
        if line.startswith("id:"):
            value = line[3:].split("#", 1)[0].strip()
            column = len(line) - len(line[3:].lstrip()) + 1
            shown = value[:60].encode("unicode_escape").decode("ascii")
            return (f"class.yaml:{number}:{column}: id: found '{shown}', expected a lowercase "
                    "id (letters, digits, hyphens; up to 60)")
    return ("class.yaml:1:1: id: found no id, expected 'id: ' and a lowercase id (letters, "
            "digits, hyphens)")


def _quarterdeck(folder: Path, argv: list[str]) -> tuple[int, str, str]:
    """Run ``quarterdeck ARGV`` in ``folder``; its status, stdout and stderr."""
    with _CHECKS:
        try:
            done = subprocess.run([*QUARTERDECK, *argv], cwd=folder,
                                  capture_output=True, text=True, encoding="utf-8",
                                  errors="replace", timeout=CHECK_SECONDS,
                                  env=command_environment(), stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            return 124, "", f"error: the check ran over {CHECK_SECONDS:.0f} s and was stopped"
    return done.returncode, done.stdout, done.stderr


def _lines(text: str) -> list[str]:
    """The non-blank lines of a command's output, at most 200."""
    return [line for line in text.splitlines() if line.strip()][:200]


def _plan(text: str, data: Sequence[Path], scratch: Path,
          logo: tuple[str, bytes] | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """The builds an event file asks for (table by table), or its located problems."""
    import secrets

    from generator.core.errors import DataError, QuarterdeckError
    from generator.data.library import validated_library
    from generator.kit.eventfile import load_event, plan

    folder = scratch / secrets.token_hex(8)
    folder.mkdir(parents=True)
    path = folder / "event.yaml"
    path.write_text(text, encoding="utf-8")
    if logo:
        (folder / logo[0]).write_bytes(logo[1])
    try:
        library = validated_library(list(data))
        event, _, _ = load_event(path, library)
    except DataError as exc:
        return [], [_relative(str(p), folder) for p in exc.problems]
    except QuarterdeckError as exc:
        return [], [_relative(str(exc), folder)]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    rows = [{"paper": b.paper, "table": b.number or "", "scenario": b.scenario.id,
             "what": f"extra: {b.extra}" if b.extra else _packets(library, b.scenario.id)}
            for b in plan(event)]
    return rows, []


def _packets(library: Any, scenario: str) -> str:
    """A table's packets in words: one a side, by the side's name, and the referee's."""
    entry = library.scenarios.get(scenario)
    sides = [str(getattr(s, "name", "") or getattr(s, "id", ""))
             for s in getattr(getattr(entry, "model", None), "sides", ()) or ()]
    return " / ".join([*sides, "referee"]) if sides else "the kit"  # names hold commas


_EVENT_NAME = re.compile(r"^name:[ \t]*(['\"]?)([^\n#'\"]{1,80})\1[ \t]*(#.*)?$", re.M)


def _event_title(text: str) -> str:
    """A job's title for an event: its name when the file's own line says it plainly."""
    found = _EVENT_NAME.search(text)
    return f"Event: {found.group(2).strip()}" if found else "Event"


def _relative(message: str, folder: Path) -> str:
    """A message about the scratch copy, naming the file as the user knows it."""
    for form in (str(folder.resolve()), str(folder)):
        message = message.replace(form + "/", "")
    return re.sub(r"^\S*?event\.yaml", "event.yaml", message)


def _example_event(gallery: Gallery) -> str:
    """A small event file to start from: the first two scenarios of the library."""
    shelves = gallery.listing()
    ids = [card.id for shelf in shelves for card in shelf.cards][:2]
    lines = ["kind: event", "name: Club night", f"date: {datetime.date.today().isoformat()}",
             "paper: [a4]", "seed: 1", "scenarios:"]
    for n, sid in enumerate(ids):
        lines += [f"  - id: {sid}", f"    tables: {2 if n == 0 else 1}"]
    if not ids:  # a library with problems lists none: say what goes here
        lines += ["  - id: SCENARIO-ID   # one the Scenarios page shows", "    tables: 1"]
    return "\n".join(lines) + "\n"


def _example_class() -> str:
    """A class file to start from: ``new-class``'s scaffold for a destroyer."""
    from generator.kit.seam import new_class_yaml

    return str(new_class_yaml("my-destroyer", "US", "DD"))
