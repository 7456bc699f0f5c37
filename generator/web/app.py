"""The web application: Flask routes over the commands, the jobs and the library.

Why Flask (with waitress serving it, ``generator.cli.serve``): every page here is a
form, a job's progress or a file, and every job is a command line run in its own
process (``generator.web.jobs``), so a synchronous WSGI framework is all it takes. Flask
brings its test client (fast tests with no server), Jinja2 with autoescaping (already a
dependency), bounded uploads (``MAX_CONTENT_LENGTH``) and click (already a dependency);
waitress is pure Python, runs the same on Linux, macOS and Windows, and needs no
compiler: the one ``pip install`` of the README brings both.

Nothing a request says becomes a path: jobs and files are looked up by id and number
(``Jobs``), scenarios and classes by id in the validated library, and uploads go into a
fresh folder of the server's own under names it chooses.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
from flask import Flask, Response, abort, jsonify, redirect, render_template, request, url_for
from werkzeug.exceptions import HTTPException

from generator.web.forms import Form, FormError, argv_of, form_of
from generator.web.jobs import JobRefused, Jobs, Limits
from generator.web.library import Gallery, page_count, page_png

MAX_UPLOAD = 640 * 1024
"""The largest request the server reads, in bytes: an event file (256 KB), its logo
(128 KB) and the logo kept from the plan's page (base64), with room to spare."""
MAX_PARTS = 64
"""The most fields and files one form may send."""


@dataclass
class Settings:
    """What ``quarterdeck serve`` was started with."""

    root: click.Group
    """The ``quarterdeck`` command group: every form is made from its commands."""
    out: Path
    """The output folder: jobs write under ``out/web-jobs``."""
    data: Sequence[Path] = ()
    """The user's data folders (``--data``), passed to every command that reads data."""
    limits: Limits = field(default_factory=Limits)
    environment: dict[str, str] | None = None
    """The jobs' environment (default: the server's own)."""


class Catalogue:
    """The commands the pages offer, found from the command group and the rulesets.

    Writers: every command with a SCENARIO argument that writes into ``--out`` (a kit, its
    tables, markers, aids, exports). Calculators: ``odds`` and each ruleset's calculator
    commands (``Ruleset.calculators``). Nothing here names a command's options.
    """

    def __init__(self, root: click.Group) -> None:
        """Nothing is read yet: the forms are made at the first page."""
        self.root = root
        self._lock = threading.Lock()
        self._forms: dict[str, Form] | None = None
        self.writers: list[str] = []
        self.calculators: list[str] = []
        self.owners: dict[str, str] = {}
        """A ruleset's own commands: the ruleset (its writers show on its scenarios only)."""
        self.lacking: dict[str, set[str]] = {}
        """Per ruleset, the writers it prints nothing for (``strings`` for modern naval):
        its scenarios offer no link a player could only be refused by."""

    def _commands(self) -> dict[str, click.Command]:
        """Every command of the group, by name."""
        ctx = click.Context(self.root)
        return {name: command for name in self.root.list_commands(ctx)
                if (command := self.root.get_command(ctx, name)) is not None}

    def forms(self, suggestions: dict[str, list[str]]) -> dict[str, Form]:
        """Every offered command's form (made once)."""
        with self._lock:
            if self._forms is None:
                from generator.rulesets import REGISTRY

                commands = self._commands()
                asked = {"odds"} | {c.command for r in REGISTRY.values()
                                    for c in r.calculators()}
                self.owners = {str(c.name): r.name for r in REGISTRY.values()
                               for c in r.commands()}
                forms: dict[str, Form] = {}
                for name, command in commands.items():
                    made = form_of(command, name, suggestions)
                    first = command.params[0] if command.params else None
                    scenario = isinstance(first, click.Argument) and first.name == "scenario"
                    if name in asked:
                        self.calculators.append(name)
                    elif made.takes_out and made.takes_data and scenario:
                        self.writers.append(name)
                    else:
                        continue
                    forms[name] = made
                # A recipe set to None is an output the ruleset declines (kit.instead).
                self.lacking = {r.name: {w for w in self.writers
                                         if getattr(r.recipes, w, "absent") is None}
                                for r in REGISTRY.values()}
                self._forms = forms
            return self._forms

    def command(self, name: str) -> click.Command:
        """The click command of an offered form."""
        found = self.root.get_command(click.Context(self.root), name)
        assert found is not None
        return found


def create_app(settings: Settings) -> Flask:
    """The application for one server: its jobs, its library and its routes."""
    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=MAX_UPLOAD, MAX_FORM_PARTS=MAX_PARTS,
                      TEMPLATES_AUTO_RELOAD=False, JSON_SORT_KEYS=False)
    jobs = Jobs(settings.out / "web-jobs", settings.limits, settings.environment)
    gallery = Gallery(list(settings.data))
    catalogue = Catalogue(settings.root)

    def forms() -> dict[str, Form]:
        """The offered commands' forms, with the library's ids to suggest."""
        return catalogue.forms(gallery.suggestions())

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException) -> tuple[str, int]:
        # Every refusal is a page that says what was wrong, in the site's own words.
        """A refusal (404, 413...) as a page in the site's own words."""
        return render_template("error.html", code=exc.code, message=_said(exc)), exc.code or 500

    @app.errorhandler(Exception)
    def internal(exc: Exception) -> tuple[str, int]:  # never a traceback on a page
        """Anything unexpected: a page saying so, the details in the log only."""
        app.logger.error("internal error: %s: %s", type(exc).__name__, exc)
        return render_template("error.html", code=500, message=(
            f"internal error: {type(exc).__name__}. This is a bug in quarterdeck; the "
            "server's terminal has the details.")), 500

    @app.get("/")
    def home() -> str:
        """The gallery of scenarios by ruleset, and the calculators."""
        offered = forms()
        return render_template("home.html", gallery=gallery.listing(),
                               writers=catalogue.writers, calculators=catalogue.calculators,
                               owners=catalogue.owners, lacking=catalogue.lacking,
                               titles={n: f.title for n, f in offered.items()})

    @app.get("/thumb/<scenario>.png")
    def thumb(scenario: str) -> Response:
        """A scenario's picture (404 when it has none)."""
        png = gallery.thumbnail(scenario)
        if png is None:
            abort(404, "no picture for this scenario")
        return Response(png, mimetype="image/png",
                        headers={"Cache-Control": "max-age=3600"})

    @app.route("/run/<name>", methods=["GET", "POST"])
    def command(name: str) -> Any:
        """A command's form (GET), or its job started from the answers (POST)."""
        offered = forms()
        if name not in offered:
            abort(404, f"no command '{name}' here")
        form = offered[name]
        answers = {f.name: request.values.get(f.name, f.default) for f in form.fields}
        if request.method == "GET":
            return render_template("command.html", form=form, answers=answers, error=None)
        answers = {f.name: request.form.get(f.name, "") for f in form.fields}
        job_id, folder = jobs.folder()
        try:
            argv = argv_of(catalogue.command(name), form, answers, folder, settings.data)
            job = jobs.start(job_id, folder, _title(name, answers, gallery), name, argv)
        except (FormError, JobRefused) as exc:
            import shutil

            shutil.rmtree(folder, ignore_errors=True)
            error = FormError(str(exc)) if isinstance(exc, JobRefused) else exc
            return render_template("command.html", form=form, answers=answers,
                                   error=error), 400
        if name in catalogue.calculators:
            jobs.wait(job, 60)  # a question is answered at once: show the answer here
        return redirect(url_for("job_page", job_id=job.id), code=303)

    @app.get("/jobs/<job_id>")
    def job_page(job_id: str) -> str:
        """A job's page: its progress, then its messages, answer and downloads."""
        job = jobs.get(job_id) or abort(404, "no such job (jobs are kept for a while)")
        pages = {n: page_count(job.folder / name) for n, name in enumerate(job.files)
                 if name.endswith(".pdf")} if job.state == "done" else {}
        return render_template("job.html", job=job, pages=pages)

    @app.get("/jobs/<job_id>/status")
    def job_status(job_id: str) -> Response:
        """A job's state as JSON, for the page that polls it."""
        job = jobs.get(job_id) or abort(404, "no such job")
        return jsonify(job.summary())

    @app.get("/jobs/<job_id>/files/<int:number>")
    def job_file(job_id: str, number: int) -> Response:
        """One file a finished job wrote, by its number in the job's list."""
        from flask import send_file

        job = jobs.get(job_id) or abort(404, "no such job")
        if job.state != "done" or not 0 <= number < len(job.files):
            abort(404, "no such file")
        name = job.files[number]
        return send_file(job.folder / name, as_attachment=True,
                         download_name=name.replace("/", "_"))

    @app.get("/jobs/<job_id>/files/<int:number>/page/<int:page>.png")
    def job_page_png(job_id: str, number: int, page: int) -> Response:
        """One page of a PDF a finished job wrote, as a PNG preview."""
        job = jobs.get(job_id) or abort(404, "no such job")
        if job.state != "done" or not 0 <= number < len(job.files) \
                or not job.files[number].endswith(".pdf"):
            abort(404, "no such file")
        png = page_png(job.folder / job.files[number], page)
        if png is None:
            abort(404, "no such page")
        return Response(png, mimetype="image/png")

    from generator.web.workshop import register

    register(app, jobs, gallery, settings.data, settings.root)
    return app


def _title(name: str, answers: dict[str, str], gallery: Gallery) -> str:
    """A job's title: the command and what it is about (a scenario by its own name)."""
    scenario = answers.get("scenario", "").strip()
    named = gallery.names().get(scenario) if scenario else None
    subject = named or scenario or next((v for v in answers.values() if v), "")
    return f"{name}: {subject}" if subject else name


def _said(exc: HTTPException) -> str:
    """An HTTP refusal in words (413 says how large a request may be)."""
    if exc.code == 413 and str(exc.description).startswith("found "):
        return str(exc.description)  # the server's own bound, already said in full
    if exc.code == 413:
        return (f"found a request over {MAX_UPLOAD // 1024} KB, expected at most that "
                f"(and at most {MAX_PARTS} fields)")
    text = exc.description or exc.name
    return re.sub(r"\s+", " ", str(text)).strip()
