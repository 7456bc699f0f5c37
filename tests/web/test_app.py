"""``quarterdeck serve``'s pages through Flask's test client: forms, jobs, files, limits.

Forms are made from the click commands, so the tests compare them with the commands'
own declarations; jobs are the real command line, so their messages and answers are
compared with the command line's, word for word.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import click
import pypdfium2
import pytest
from click.testing import CliRunner

from generator.cli.main import main
from generator.web.app import MAX_UPLOAD, Settings, create_app
from generator.web.forms import FormError, argv_of, form_of
from generator.web.jobs import Jobs, Limits

SMALL = "sheffield-1982"
"""The bundled scenario that builds fastest (about 1.5 s)."""


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's output folder, shared by the module's jobs."""
    return tmp_path_factory.mktemp("serve")


@pytest.fixture(scope="module")
def client(out: Path):  # type: ignore[no-untyped-def]
    """Flask's test client of an app over the bundled library."""
    return create_app(Settings(main, out)).test_client()


def finished(client, location: str, seconds: float = 60) -> dict:  # type: ignore[no-untyped-def]
    """Poll a job's status (as the page does) until it ends; every status seen."""
    job_id = location.rstrip("/").rsplit("/", 1)[1]
    end = time.monotonic() + seconds
    seen = []
    while time.monotonic() < end:
        status = client.get(f"/jobs/{job_id}/status").get_json()
        seen.append(status)
        if status["state"] in ("done", "failed"):
            status["seen"] = seen
            return status
        time.sleep(0.1)
    raise AssertionError(f"job {job_id} did not end in {seconds} s")


def command(name: str) -> click.Command:
    """The ``quarterdeck`` command called ``name``."""
    found = main.get_command(click.Context(main), name)
    assert found is not None
    return found


# --- forms: made from the commands' own parameters --------------------------------------

def test_build_form_is_the_commands_options() -> None:
    form = form_of(command("build"), "build")
    fields = {f.name: f for f in form.fields}
    assert list(fields) == ["scenario", "class_id", "ship", "paper", "seed", "print_shop"]
    assert fields["paper"].kind == "select" and fields["paper"].choices == ("a4", "letter")
    assert fields["paper"].default == "a4"
    assert fields["print_shop"].kind == "checkbox"
    assert fields["print_shop"].help == command("build").params[-1].help  # type: ignore[attr-defined]
    # The server's own: data folder and output; paths a browser may not name: none shown.
    assert form.takes_data and form.takes_out
    assert not {"data", "out", "tables", "templates", "quiet", "rulesets"} & set(fields)


def test_forms_speak_to_players_not_to_a_terminal() -> None:
    build = form_of(command("build"), "build")
    assert build.title == "Build the scenario's kit (default: the first ruleset's scenario)"
    assert {f.name: f.help for f in build.fields}["ship"] == \
        "With 'class': which ship (default: the first)."
    assert form_of(command("bombing"), "bombing").title == (
        "Exact chances that each counter of 'stack' is hit, flipped or sunk by 'hits' bombs")
    odds = form_of(command("odds"), "odds")
    assert odds.title == "Answer one matchup exactly, or name the command that does"
    # An option with no default (click's UNSET) shows an empty field, never a sentinel.
    assert [f.default for f in odds.fields if f.name in ("firer", "target", "band")] == \
        ["", "", ""]


def test_markers_form_ranges_and_extra_folders() -> None:
    fields = {f.name: f for f in form_of(command("markers"), "markers").fields}
    assert (fields["dpi"].kind, fields["dpi"].low, fields["dpi"].high) == ("number", 72, 1200)
    assert fields["duplex"].choices == ("long", "short", "off")
    assert fields["cut"].choices == ("lines", "marks", "both")
    # Folders the command "also writes" are checkboxes into the job's folder; an input
    # folder or file (--sprue, --tables) is not offered.
    assert {n for n, f in fields.items() if f.kind == "also"} == {"png", "tts", "pod"}
    assert "sprue" not in fields and "tables" not in fields


def test_an_option_added_to_a_command_appears_by_itself() -> None:
    @click.command()
    @click.argument("scenario")
    @click.option("--gloss", type=click.Choice(["matt", "satin"]), default="matt",
                  help="Paper finish.")
    @click.option("--copies", type=click.IntRange(1, 9), default=1, help="How many.")
    def made(scenario: str, gloss: str, copies: int) -> None:
        """Make it."""

    fields = {f.name: f for f in form_of(made, "made").fields}
    assert fields["gloss"].choices == ("matt", "satin") and fields["gloss"].help == "Paper finish."
    assert (fields["copies"].low, fields["copies"].high) == (1, 9)
    assert fields["scenario"].required


def test_answers_become_the_command_line(tmp_path: Path) -> None:
    build = command("build")
    form = form_of(build, "build")
    line = argv_of(build, form, {"scenario": SMALL, "paper": "letter", "print_shop": "on",
                                 "seed": "", "class_id": ""}, tmp_path, [Path("/d")])
    assert line == ["--paper=letter", "--print-shop", "--data=/d", f"--out={tmp_path}",
                    "--", SMALL]
    # A value that looks like an option stays a value (after '--').
    line = argv_of(build, form, {"scenario": "--help"}, tmp_path)
    assert line[-2:] == ["--", "--help"]


def test_a_refused_value_is_clicks_message_on_its_field(tmp_path: Path) -> None:
    build = command("build")
    with pytest.raises(FormError) as refused:
        argv_of(build, form_of(build, "build"), {"scenario": SMALL, "seed": "12x"}, tmp_path)
    assert refused.value.field == "seed"
    assert refused.value.message == ("Invalid value for '--seed': found '12x', expected a "
                                     "whole number from 0 to 999,999,999 or 'random'")


# --- pages --------------------------------------------------------------------------------

def test_gallery_lists_scenarios_by_ruleset_with_sides_and_dates(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/").get_data(as_text=True)
    for title in ("NAVAL ACTION", "Surface Action", "Modern naval", "Rule 27"):
        assert f">{title}</h2>" in page
    assert "Battle of Savo Island" in page and "8/9 August 1942" in page
    assert "Japanese Striking Force v " in page
    # A ruleset's own command shows on its own scenarios only.
    shelves = re.split(r'<section aria-labelledby="shelf-', page)
    rule27 = next(s for s in shelves if s.startswith("rule-27"))
    others = [s for s in shelves[1:] if not s.startswith("rule-27")]
    assert "/run/rule27?" in rule27 and not any("/run/rule27?" in s for s in others)
    # Every field of every form has its label.
    form = client.get(f"/run/markers?scenario={SMALL}").get_data(as_text=True)
    ids = re.findall(r'<(?:input|select|textarea)[^>]* id="([^"]+)"', form)
    assert ids and all(f'<label for="{i}">' in form for i in ids)


def test_a_ruleset_offers_only_the_aids_it_prints(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/").get_data(as_text=True)
    shelves = re.split(r'<section aria-labelledby="shelf-', page)
    modern = next(s for s in shelves if s.startswith("modern-naval"))
    naval_action = next(s for s in shelves if s.startswith("naval-action"))
    assert f"/run/gauges?scenario={SMALL}" in modern
    assert "/run/strings?" not in modern and "/run/rulers?" not in modern
    assert "/run/strings?scenario=savo-island" in naval_action


def test_an_aid_at_a_chosen_scale_and_a_rulesets_calculator(client) -> None:  # type: ignore[no-untyped-def]
    asked = client.post("/run/strings", data={"scenario": "savo-island",
                                              "scale": "1000 yards per cm"})
    status = finished(client, asked.headers["Location"])
    assert status["state"] == "done", status["messages"]
    pdfs = [n for n in status["files"] if n.endswith(".pdf")]
    assert pdfs and all(n.startswith("savo-island/") for n in pdfs)
    question = {"stack": "8 NT, CL, DD", "hits": "3"}
    asked = client.post("/run/bombing", data=question)
    answer = finished(client, asked.headers["Location"])
    terminal = subprocess.run([sys.executable, "-m", "generator", "bombing",
                               "--stack=8 NT, CL, DD", "--hits=3"], capture_output=True,
                              text=True, env=dict(os.environ, NO_COLOR="1", TERM="dumb",
                                                  COLUMNS="100", PYTHONIOENCODING="utf-8"),
                              check=True)
    assert answer["output"] == terminal.stdout
    assert "NT/1             8    25.00%         -    25.00%   hit 1/4, sunk 1/4" \
        in answer["output"].splitlines()


def test_thumbnail_is_a_png_of_a_marker(client) -> None:  # type: ignore[no-untyped-def]
    got = client.get("/thumb/savo-island.png")
    assert got.status_code == 200 and got.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get("/thumb/nowhere.png").status_code == 404


def test_build_job_progress_downloads_and_page_preview(client) -> None:  # type: ignore[no-untyped-def]
    asked = client.post("/run/build", data={"scenario": SMALL, "paper": "letter"})
    assert asked.status_code == 303
    status = finished(client, asked.headers["Location"])
    assert status["state"] == "done", status["messages"]
    assert status["total"] > 1 and status["done"] == status["total"]
    files = status["files"]
    assert files[-1] == "kit.zip" and f"{SMALL}/manifest.json" in files
    pdfs = [n for n in files if n.endswith(".pdf")]
    assert pdfs
    job = asked.headers["Location"]
    archive = zipfile.ZipFile(io.BytesIO(client.get(f"{job}/files/{len(files) - 1}").data))
    assert archive.namelist() == files[:-1]
    first = files.index(pdfs[0])
    download = client.get(f"{job}/files/{first}")
    assert download.data == archive.read(pdfs[0])
    pdf = pypdfium2.PdfDocument(download.data)
    width, height = pdf[0].get_size()
    assert (round(width), round(height)) == (612, 792)  # letter, as asked
    png = client.get(f"{job}/files/{first}/page/1.png")
    from PIL import Image

    image = Image.open(io.BytesIO(png.data))
    assert image.size == (round(width * 1.5), round(height * 1.5))
    assert client.get(f"{job}/files/{first}/page/{len(pdf) + 1}.png").status_code == 404
    page = client.get(job).get_data(as_text=True)
    assert f'max="{len(pdf)}"' in page and "/tmp" not in page


def test_progress_lines_move_the_bar(monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    from generator.cli.progress import progress_bar
    from generator.web.jobs import PROGRESS_ENV, Job

    monkeypatch.setenv(PROGRESS_ENV, "lines")
    with progress_bar("rendering", "{task.completed}/{task.total}") as update:
        update(total=4)
        update(advance=1, description="rendered\tuk")  # a tab is not a field separator
        update(completed=3)
    job = Job("0" * 16, "t", "build", [], Path("."))
    jobs = Jobs(Path("."))
    seen = []
    # Split as a pipe is read, at newlines only (splitlines would split at the mark's \x1e).
    for line in capsys.readouterr().err.split("\n")[:-1]:
        jobs._heard(job, line + "\n")
        seen.append((job.done, job.total, job.step))
    assert seen == [(0, 4, "rendering"), (1, 4, "rendered uk"), (3, 4, "rendered uk")]
    jobs._heard(job, "progress\t9\t9\tnot a mark\n")  # a message, never progress
    assert (job.done, job.messages) == (3, ["progress\t9\t9\tnot a mark"])


def test_a_failed_job_shows_the_commands_message(client) -> None:  # type: ignore[no-untyped-def]
    asked = client.post("/run/build", data={"scenario": "savo-islnd"})
    status = finished(client, asked.headers["Location"])
    assert status["state"] == "failed" and status["files"] == []
    assert status["messages"] == ["error: no scenario 'savo-islnd'; did you mean "
                                  "'savo-island'?; `quarterdeck list scenarios` shows them"]
    page = client.get(asked.headers["Location"]).get_data(as_text=True)
    assert "Traceback" not in page and "did you mean" in page


def test_a_bad_value_is_refused_before_any_job(client) -> None:  # type: ignore[no-untyped-def]
    page = client.post("/run/build", data={"scenario": SMALL, "seed": "-1"})
    assert page.status_code == 400
    text = page.get_data(as_text=True)
    assert 'class="field bad"' in text and "found &#39;-1&#39;, expected a whole number" in text


def test_odds_answer_is_the_command_lines(client) -> None:  # type: ignore[no-untyped-def]
    question = {"firer": "Chokai", "target": "Astoria", "scenario": "savo-island"}
    asked = client.post("/run/odds", data=question)
    status = finished(client, asked.headers["Location"])
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="100", PYTHONIOENCODING="utf-8")
    terminal = subprocess.run([sys.executable, "-m", "generator", "odds", "--firer=Chokai",
                               "--target=Astoria", "--scenario=savo-island"],
                              capture_output=True, text=True, env=env, check=True)
    assert status["output"] == terminal.stdout
    assert "995/1296" in status["output"]  # one exact answer, as a fraction


def test_requests_never_name_a_path(client) -> None:  # type: ignore[no-untyped-def]
    for url in ("/jobs/../../etc/passwd", "/jobs/0123456789abcdef/files/0",
                "/jobs/xyz/status", "/run/serve", "/run/check", "/thumb/..%2f..%2fx.png"):
        got = client.get(url)
        assert got.status_code == 404, url
        assert "Traceback" not in got.get_data(as_text=True)


def test_crafted_paths_get_located_messages(client) -> None:  # type: ignore[no-untyped-def]
    import html

    event = EVENT.replace("paper: [a4]\n", "paper: [a4]\nlogo: ../../etc/passwd\n")
    page = client.post("/event", data={"text": event, "action": "plan"}).get_data(as_text=True)
    assert [html.unescape(p) for p in re.findall(r"<li>(.*?)</li>", page)] == [
        "event.yaml:5:7: logo: found '../../etc/passwd', expected a PNG or SVG inside the "
        "event file's folder"]
    answer = client.post("/class/check", data={
        "text": "kind: ship-class\nid:  ../../etc/passwd  # mine\n"}).get_json()
    assert answer == {"ok": False, "status": 2, "lines": [
        "class.yaml:2:6: id: found '../../etc/passwd', expected a lowercase id (letters, "
        "digits, hyphens; up to 60)"]}
    asked = client.post("/run/build", data={"scenario": "../../etc/passwd"})
    status = finished(client, asked.headers["Location"])
    assert status["state"] == "failed" and status["files"] == []
    assert status["messages"][0].startswith("error: no scenario '../../etc/passwd'")


def test_uploads_are_bounded(client) -> None:  # type: ignore[no-untyped-def]
    big = io.BytesIO(b"x" * (MAX_UPLOAD + 1))
    got = client.post("/event", data={"file": (big, "event.yaml"), "action": "plan"},
                      content_type="multipart/form-data")
    assert got.status_code == 413
    assert f"found a request over {MAX_UPLOAD // 1024} KB, expected at most that" \
        in got.get_data(as_text=True)
    # A file under the request's bound but over a file's, and a form of too many fields.
    got = client.post("/class/check", data={"text": "a" * (300 * 1024)})
    assert got.status_code == 413
    assert "found a file over 256 KB, expected at most that" in got.get_data(as_text=True)
    got = client.post("/event", data={f"x{n}": "1" for n in range(100)},
                      content_type="multipart/form-data")
    assert got.status_code == 413
    assert "(and at most 64 fields)" in got.get_data(as_text=True)


# --- jobs: bounded in number and time -------------------------------------------------------

def test_jobs_bounded_in_number_and_time(tmp_path: Path) -> None:
    jobs = Jobs(tmp_path, Limits(running=1, kept=30, seconds=1))
    one, folder = jobs.folder()
    job = jobs.start(one, folder, "slow", "build", ["--out", ".", "--", "river-plate"])
    two, other = jobs.folder()
    from generator.web.jobs import JobRefused

    with pytest.raises(JobRefused, match="found 1 jobs running, expected at most 1"):
        jobs.start(two, other, "second", "build", ["--", SMALL])
    assert not other.exists()
    jobs.wait(job, 30)
    assert job.state == "failed"
    assert job.messages[-1] == "error: the job ran 1 s, expected at most that: it was stopped"


# --- clubs: the event page --------------------------------------------------------------------

EVENT = f"""kind: event
name: Club night
date: 2026-11-28
paper: [a4]
scenarios:
  - id: {SMALL}
    tables: 2
"""


def test_event_plan_lists_its_tables(client) -> None:  # type: ignore[no-untyped-def]
    page = client.post("/event", data={"text": EVENT, "action": "plan"}).get_data(as_text=True)
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", page)
    packets = "Task force picket line / Argentine naval aviation / referee"
    assert rows == [("a4", "1", SMALL, packets), ("a4", "2", SMALL, packets)]
    assert "<p>2 builds: each table on each paper" in page
    both = EVENT.replace("paper: [a4]", "paper: [a4, letter]\nextras: [tables]")
    page = client.post("/event", data={"text": both, "action": "plan"}).get_data(as_text=True)
    rows = re.findall(r"<tr><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td></tr>", page)
    assert [(paper, table, what) for paper, table, _, what in rows] == [
        ("a4", "1", packets), ("a4", "2", packets), ("a4", "", "extra: tables"),
        ("letter", "1", packets), ("letter", "2", packets), ("letter", "", "extra: tables")]


def test_event_problem_is_located_as_the_command_line_does(client, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import html

    text = EVENT.replace(f"id: {SMALL}", "id: sheffield-1928")
    page = client.post("/event", data={"text": text, "action": "plan"}).get_data(as_text=True)
    shown = [html.unescape(item) for item in re.findall(r"<li>(.*?)</li>", page)]
    (tmp_path / "event.yaml").write_text(text, encoding="utf-8")
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="100")
    terminal = subprocess.run([sys.executable, "-m", "generator", "event", "event.yaml"],
                              capture_output=True, text=True, env=env, cwd=tmp_path)
    assert terminal.returncode == 2
    assert shown == terminal.stderr.splitlines()[:-1]  # less "error: 1 problem in the data"
    assert shown[0].startswith("event.yaml:6:9: scenarios.0.id: found 'sheffield-1928', "
                               "expected a scenario (quarterdeck list scenarios): ")


def test_event_build_gives_bundle_and_inventory(client) -> None:  # type: ignore[no-untyped-def]
    upload = io.BytesIO(EVENT.replace("tables: 2", "tables: 1").encode())
    asked = client.post("/event", data={"file": (upload, "club.yaml"), "action": "build"},
                        content_type="multipart/form-data")
    status = finished(client, asked.headers["Location"], 120)
    assert status["state"] == "done", status["messages"]
    files = status["files"]
    assert "club-night/a4/print-shop.pdf" in files and "club-night/inventory.csv" in files
    assert "event.yaml" not in files  # the upload is the job's input, not its output
    assert status["total"] >= 1 and status["done"] == status["total"]


def _png(width: int = 60, height: int = 30) -> bytes:
    """A small PNG logo."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (width, height), (200, 30, 30)).save(buffer, "PNG")
    return buffer.getvalue()


def test_event_logo_is_uploaded_kept_through_the_plan_and_printed(client) -> None:  # type: ignore[no-untyped-def]
    import base64
    import html

    from pypdf import PdfReader

    text = EVENT.replace("tables: 2", "tables: 1").replace(
        "paper: [a4]", "paper: [a4]\nlogo: club-logo.png")
    logo = _png()
    page = client.post("/event", data={"text": text, "action": "plan",
                                       "logo": (io.BytesIO(logo), "mine.png")},
                       content_type="multipart/form-data").get_data(as_text=True)
    assert "<tr><td>a4</td><td>1</td>" in page, page
    kept = re.search(r'name="logo_data" value="([^"]*)"', page)
    assert kept is not None and base64.b64decode(html.unescape(kept.group(1))) == logo
    assert "Logo kept from before: club-logo.png" in page
    # The build, posted from the plan's page: the file input is empty, the kept copy is not.
    asked = client.post("/event", data={"text": text, "action": "build",
                                        "logo_data": html.unescape(kept.group(1))})
    status = finished(client, asked.headers["Location"], 120)
    assert status["state"] == "done", status["messages"]
    assert "club-logo.png" not in status["files"]  # the logo is an input, not an output
    cover = next(name for name in status["files"] if name.endswith("print-shop.pdf"))
    job = asked.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    number = status["files"].index(cover)
    pdf = PdfReader(io.BytesIO(client.get(f"/jobs/{job}/files/{number}").data))
    sizes = {(int(x["/Width"]), int(x["/Height"])) for p in pdf.pages
             for x in (p["/Resources"].get("/XObject") or {}).values()
             if x.get_object().get("/Subtype") == "/Image"}
    assert (60, 30) in sizes


def test_event_logo_without_a_logo_line_is_a_located_problem(client) -> None:  # type: ignore[no-untyped-def]
    got = client.post("/event", data={"text": EVENT, "action": "plan",
                                      "logo": (io.BytesIO(_png()), "mine.png")},
                      content_type="multipart/form-data")
    assert got.status_code == 400
    assert ("event.yaml:1:1: logo: found an uploaded logo but no &#39;logo:&#39; line, "
            "expected &#39;logo: FILE.png&#39; (or .svg) naming it") in got.get_data(as_text=True)
    big = client.post("/event", data={"text": EVENT, "action": "plan",
                                      "logo": (io.BytesIO(b"x" * (129 * 1024)), "big.png")},
                      content_type="multipart/form-data")
    assert "logo: found a file over 128 KB, expected at most that" in big.get_data(as_text=True)


# --- designers: the class editor -------------------------------------------------------------

def bundled_class(name: str) -> str:
    """The text of a bundled class file."""
    from generator.kit.preview import class_file

    return class_file(name, []).read_text(encoding="utf-8")


def test_class_check_locates_problems_as_check_does(client, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    text = bundled_class("fletcher").replace("id: fletcher", "id: my-fletcher", 1)
    broken = re.sub(r"(?m)^(\s*speed_kn:\s*)\d+", r"\g<1>fast", text, count=1)
    assert broken != text
    answer = client.post("/class/check", data={"text": broken}).get_json()
    (tmp_path / "my-fletcher.yaml").write_text(broken, encoding="utf-8")
    env = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="100")
    terminal = subprocess.run([sys.executable, "-m", "generator", "check", "my-fletcher.yaml"],
                              capture_output=True, text=True, env=env, cwd=tmp_path)
    assert terminal.returncode == 2 and answer["status"] == 2 and not answer["ok"]
    assert answer["lines"] == [line for line in terminal.stderr.splitlines() if line.strip()]
    assert re.match(r"my-fletcher\.yaml:\d+:\d+: speed_kn: found ", answer["lines"][0])


def test_class_check_says_which_rulesets_rate_it(client) -> None:  # type: ignore[no-untyped-def]
    text = bundled_class("fletcher").replace("id: fletcher", "id: my-fletcher", 1)
    answer = client.post("/class/check", data={"text": text}).get_json()
    assert answer["ok"], answer["lines"]
    assert "my-fletcher.yaml: 'my-fletcher' is rated by naval-action, surface-action, " \
           "rule-27" in answer["lines"]
    assert "  modern-naval cannot rate it: it rates missile-era classes only" in answer["lines"]


def test_class_preview_is_a_png(client) -> None:  # type: ignore[no-untyped-def]
    text = bundled_class("fletcher").replace("id: fletcher", "id: my-fletcher", 1)
    answer = client.post("/class/preview", data={"text": text, "component": "marker"}).get_json()
    assert answer["ok"], answer["lines"]
    import base64

    assert base64.b64decode(answer["png"])[:8] == b"\x89PNG\r\n\x1a\n"
    refused = client.post("/class/preview", data={"text": text, "component": "../x"})
    assert refused.status_code == 400


# --- the command ------------------------------------------------------------------------------

def test_serve_refuses_a_remote_host_without_allow_remote() -> None:
    got = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--no-browser"])
    assert got.exit_code == 2
    assert "--host: found '0.0.0.0', expected 127.0.0.1 (this computer) unless " \
           "--allow-remote is given too" in got.output


def test_serve_binds_locally_and_opens_no_browser_when_asked(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    import webbrowser

    import waitress

    served: dict = {}
    monkeypatch.setattr(waitress, "serve", lambda app, **kw: served.update(kw, app=app))
    monkeypatch.setattr(webbrowser, "open", lambda url: served.update(opened=url))
    got = CliRunner().invoke(main, ["serve", "--no-browser", "--port", "8700",
                                    "--out", str(tmp_path)])
    assert got.exit_code == 0, got.output
    assert (served["host"], served["port"]) == ("127.0.0.1", 8700) and "opened" not in served
    assert "quarterdeck is at http://localhost:8700/" in got.output
    got = CliRunner().invoke(main, ["serve", "--port", "8701", "--host", "0.0.0.0",
                                    "--allow-remote", "--out", str(tmp_path)])
    assert served["opened"] == "http://0.0.0.0:8701/" and served["host"] == "0.0.0.0"
    assert "warning: serving on 0.0.0.0: anyone who can reach" in got.output


def test_serve_refuses_a_missing_data_folder_and_a_taken_port(tmp_path: Path) -> None:
    import socket

    got = CliRunner().invoke(main, ["serve", "--no-browser", "--data", str(tmp_path / "no"),
                                    "--out", str(tmp_path)])
    assert got.exit_code == 2
    assert f"--data: found '{tmp_path / 'no'}', expected an existing folder or file" \
        in got.output
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        if port < 1024:  # serve takes 1024 and up; an ephemeral port always is
            pytest.skip("the system gave a port below 1024")
        got = CliRunner().invoke(main, ["serve", "--no-browser", "--port", str(port),
                                        "--out", str(tmp_path)])
    assert got.exit_code == 2 and "Traceback" not in got.output
    assert f"--port: could not listen on 127.0.0.1:{port}: " in got.output
    assert "expected a free port (try --port 8643)" in got.output
