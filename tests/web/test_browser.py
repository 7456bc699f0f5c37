"""``quarterdeck serve`` in a real browser: Debian's headless Chromium clicks each flow through.

The server is the real one (waitress, on a free port, with a folder of its own); the
browser builds a kit and downloads a packet and the zip, builds an event, edits a class
into an error and reads the located message, and asks an odds question from the keyboard.
What the pages show is compared with what the command line says, word for word, and
what is downloaded is read back (pages, paper size, archive contents).

Without chromium and chromedriver these tests are skipped on a workstation; under
``CI=true`` they fail, so CI never passes without them (``.ci/run`` installs both).
Set ``QUARTERDECK_SHOTS=folder`` to keep a screenshot of each step at laptop
(1366x768) and tablet (768x1024) sizes.
"""

from __future__ import annotations

import csv
import io
import os
import sys
import threading
import time
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pypdfium2
import pytest

from generator.cli.main import main
from generator.web.app import Settings, create_app
from tests.needs import need_tool

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
CHROMEDRIVER = Path(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
SMALL = "sheffield-1982"
"""The bundled scenario that builds fastest."""
LAPTOP, TABLET = (1366, 768), (768, 1024)
WAIT = 60.0
"""Seconds a step may take (a build is about 2 s; a loaded CI machine is slower)."""
TERMINAL = dict(os.environ, NO_COLOR="1", TERM="dumb", COLUMNS="100",
                PYTHONIOENCODING="utf-8")
"""How the command line is run to compare its words with the page's."""

if os.environ.get("CI") == "true":
    from selenium import webdriver  # in CI a missing selenium fails, as chromium does
else:
    webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.common.by import By  # noqa: E402 - after the import check
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.remote.webelement import WebElement  # noqa: E402


def _missing() -> str | None:
    """Why no browser can run here, or None."""
    for tool in (CHROMIUM, CHROMEDRIVER):
        if not tool.exists():
            return f"no {tool} (apt-get install chromium chromium-driver)"
    return None


def _need_a_browser() -> None:
    """Skip when no browser can run here; fail instead under ``CI=true``."""
    need_tool(_missing())


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server (waitress) on a free port of this computer; its address."""
    from waitress.server import create_server

    out = tmp_path_factory.mktemp("served")
    app = create_app(Settings(main, out))
    served = create_server(app, host="127.0.0.1", port=0, threads=6)
    port = served.effective_port  # type: ignore[union-attr]
    thread = threading.Thread(target=served.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    # Stop every thread the server started: a test run later in this process forks
    # (generator.core.parallel), which it only does when it is the only thread.
    served.close()
    served.task_dispatcher.shutdown()  # type: ignore[union-attr]
    thread.join(10)
    assert not thread.is_alive()


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder the browser downloads into, unasked."""
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads: Path) -> Iterator[Any]:
    """Headless Chromium at a laptop's size, downloading into ``downloads`` unasked."""
    _need_a_browser()
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--disable-gpu", "--disable-extensions", f"--window-size={LAPTOP[0]},"
                     f"{LAPTOP[1]}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {
        "download.default_directory": str(downloads), "download.prompt_for_download": False,
        "download.directory_upgrade": True, "safebrowsing.enabled": True})
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    driver.set_window_size(*LAPTOP)
    yield driver
    driver.quit()


# --- helpers --------------------------------------------------------------------------------

def until(what: Callable[[], Any], seconds: float = WAIT, say: str = "") -> Any:
    """Poll ``what`` until it returns something true; that value."""
    end = time.monotonic() + seconds
    while True:
        try:
            got = what()
        except Exception:  # noqa: BLE001 - an element not there yet, a page still loading
            got = None
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"waited {seconds:.0f} s for {say or what}")
        time.sleep(0.1)


def shot(driver: Any, name: str) -> None:
    """With QUARTERDECK_SHOTS set: this page as a laptop and a tablet show it."""
    folder = os.environ.get("QUARTERDECK_SHOTS")
    if not folder:
        return
    Path(folder).mkdir(parents=True, exist_ok=True)
    for size, tag in ((LAPTOP, "laptop"), (TABLET, "tablet")):
        driver.set_window_size(*size)
        time.sleep(0.3)
        driver.save_screenshot(str(Path(folder) / f"{name}-{tag}.png"))
    driver.set_window_size(*LAPTOP)


def downloaded(folder: Path, link: WebElement) -> Path:
    """Click a download link; the file once it has fully arrived."""
    before = set(folder.iterdir())
    link.click()

    def arrived() -> Path | None:
        """The new file, once whole (no partial download left)."""
        new = [p for p in set(folder.iterdir()) - before if not p.name.endswith(".crdownload")
               and not p.name.startswith(".")]
        return new[0] if new and new[0].stat().st_size > 0 else None

    return until(arrived, say=f"the download of {link.text}")  # type: ignore[no-any-return]


def finished(driver: Any) -> None:
    """Wait on a job's page until the job has ended and its page says so."""
    until(lambda: driver.find_element(By.ID, "job").get_attribute("data-state")
          in ("done", "failed"), say="the job to end")


def unlabelled(driver: Any) -> list[str]:
    """The fields of the page no label names (by id, or their HTML when they have none)."""
    return driver.execute_script(  # type: ignore[no-any-return]
        "return [...document.querySelectorAll('input, select, textarea')]"
        ".filter(e => e.type !== 'hidden' && !(e.labels && e.labels.length)"
        " && !e.getAttribute('aria-label') && !e.getAttribute('aria-labelledby'))"
        ".map(e => e.id || e.outerHTML.slice(0, 80));")


def terminal(args: list[str], cwd: Path | None = None) -> tuple[int, str, str]:
    """What the command line says to ``quarterdeck ARGS`` (run in this process: faster)."""
    from click.testing import CliRunner

    old = os.getcwd()
    os.chdir(cwd or old)
    try:
        result = CliRunner(env={k: TERMINAL[k] for k in ("NO_COLOR", "TERM", "COLUMNS")}) \
            .invoke(main, args, catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def pdf_of(path: Path) -> Any:
    """A downloaded file read as a PDF (it must begin as one)."""
    data = path.read_bytes()
    assert data[:5] == b"%PDF-", path
    return pypdfium2.PdfDocument(data)


# --- players: build a kit, preview a page, download a packet and the zip ---------------------

def test_player_builds_a_kit_and_downloads_it(browser: Any, server: str,
                                              downloads: Path) -> None:
    browser.get(server + "/")
    card = until(lambda: browser.find_element(
        By.CSS_SELECTOR, f'a[href="/run/build?scenario={SMALL}"]'), say="the scenario card")
    image = card.find_element(By.XPATH, "ancestor::li[@class='card']//img")
    until(lambda: browser.execute_script(
        "arguments[0].scrollIntoView(); return arguments[0].complete && "
        "arguments[0].naturalWidth > 0", image), say="the scenario's picture")
    browser.execute_script("window.scrollTo(0, 0)")
    shot(browser, "home")
    card.click()
    assert browser.find_element(By.ID, "f-scenario").get_attribute("value") == SMALL
    paper = browser.find_element(By.ID, "f-paper")
    paper.find_element(By.CSS_SELECTOR, 'option[value="letter"]').click()
    assert unlabelled(browser) == []
    # The last field, then Tab to the Build button and Space: submitted from the keyboard.
    browser.find_element(By.ID, "f-print_shop").send_keys(Keys.TAB)
    button = browser.switch_to.active_element
    assert button.tag_name == "button" and button.text == "Build"
    button.send_keys(Keys.SPACE)
    until(lambda: "/jobs/" in browser.current_url, say="the job's page")
    assert browser.find_element(By.TAG_NAME, "progress") is not None
    finished(browser)
    assert browser.find_element(By.TAG_NAME, "h1").text == "build: Exocet day, South Atlantic"
    assert browser.find_element(By.ID, "state").text == "Done"
    bar = browser.find_element(By.ID, "bar")
    assert bar.get_attribute("value") == bar.get_attribute("max") != "1"
    links = {a.text: a for a in browser.find_elements(By.CSS_SELECTOR, "#files li > a")}
    packets = [name for name in links if name.endswith(".pdf")]
    assert packets and list(links)[-1] == "kit.zip"
    assert unlabelled(browser) == []
    # The first packet's first page shows by itself; a player pages on through it.
    preview = browser.find_element(By.ID, "preview-img")

    def shown(page: int) -> bool:
        """Whether the preview shows ``page``, loaded."""
        return bool(preview.get_attribute("src").endswith(f"/page/{page}.png")
                    and browser.execute_script("return arguments[0].complete && "
                                               "arguments[0].naturalWidth > 0", preview))

    until(lambda: shown(1), say="the first page's preview")
    pager = browser.find_element(By.CSS_SELECTOR, "form.pager")
    field = pager.find_element(By.TAG_NAME, "input")
    pages = int(field.get_attribute("max") or 0)
    asked = min(2, pages)
    field.clear()
    field.send_keys(str(asked), Keys.ENTER)
    until(lambda: shown(asked), say="the asked page's preview")
    assert browser.find_element(By.ID, "preview-caption").text == \
        f"{packets[0]}, page {asked}"
    shot(browser, "job")
    packet = downloaded(downloads, links[packets[0]])
    pdf = pdf_of(packet)
    assert len(pdf) == pages
    width, height = pdf[0].get_size()
    assert (round(width / 72 * 25.4, 2), round(height / 72 * 25.4, 2)) == (215.9, 279.4)
    archive = zipfile.ZipFile(downloaded(downloads, links["kit.zip"]))
    assert archive.namelist() == list(links)[:-1]
    assert archive.read(packets[0]) == packet.read_bytes()


# --- clubs: an event of several tables ------------------------------------------------------

EVENT = f"""kind: event
name: Club night
date: 2026-11-28
paper: [a4]
scenarios:
  - id: {SMALL}
    tables: 2
"""


def test_club_plans_and_builds_an_event(browser: Any, server: str, downloads: Path) -> None:
    browser.get(server + "/")
    browser.find_element(By.LINK_TEXT, "Event").click()
    text = browser.find_element(By.ID, "event-text")
    text.clear()
    text.send_keys(EVENT)
    browser.find_element(By.CSS_SELECTOR, 'button[value="plan"]').click()
    rows = until(lambda: browser.find_elements(By.CSS_SELECTOR, "#plan tbody tr"),
                 say="the event's tables")
    assert [[td.text for td in row.find_elements(By.TAG_NAME, "td")] for row in rows] == \
        [["a4", str(n), SMALL, "Task force picket line / Argentine naval aviation / referee"]
         for n in (1, 2)]
    assert unlabelled(browser) == []
    shot(browser, "event")
    browser.find_element(By.CSS_SELECTOR, 'button[value="build"]').click()
    until(lambda: "/jobs/" in browser.current_url, say="the event's job")
    finished(browser)
    assert browser.find_element(By.ID, "state").text == "Done"
    assert browser.find_element(By.TAG_NAME, "h1").text == "Event: Club night"
    links = {a.text: a for a in browser.find_elements(By.CSS_SELECTOR, "#files li > a")}
    assert "event.yaml" not in links
    first = [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#first-files li > a")]
    assert first == ["club-night/a4/print-shop.pdf", "club-night/inventory.csv", "kit.zip"]
    bundle = pdf_of(downloaded(downloads, links["club-night/a4/print-shop.pdf"]))
    assert len(bundle) > 1
    inventory = downloaded(downloads, links["club-night/inventory.csv"])
    rows = list(csv.reader(io.StringIO(inventory.read_text(encoding="utf-8"))))
    assert len(rows) > 2 and any(SMALL in ",".join(row) for row in rows[1:])


# --- designers: a class with an error, located as `check` locates it -------------------------

def test_designer_sees_a_typed_error_located_as_check_says(browser: Any, server: str,
                                                            tmp_path: Path) -> None:
    from generator.kit.preview import class_file

    mine = tmp_path / "my-fletcher.yaml"
    mine.write_text(class_file("fletcher", []).read_text(encoding="utf-8")
                    .replace("id: fletcher", "id: my-fletcher", 1), encoding="utf-8")
    browser.get(server + "/class")
    assert unlabelled(browser) == []
    browser.find_element(By.ID, "class-file").send_keys(str(mine))
    state = browser.find_element(By.ID, "check-state")
    until(lambda: state.text == "No problems.", say="the uploaded class to check clean")
    lines = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#check-lines li")]
    assert any(line.startswith("my-fletcher.yaml: 'my-fletcher' is rated by ")
               for line in lines), lines
    # A clean file's status sheet is drawn by itself (the other pieces' drawings are
    # test_app's: each costs a command's run, and this file must stay fast).
    picture = browser.find_element(By.ID, "class-preview-img")

    def drawn(what: str) -> bool:
        """Whether the class preview shows ``what``, loaded."""
        return bool(picture.get_attribute("alt") == f"Preview: {what}" and
                    browser.execute_script("return arguments[0].complete && "
                                           "arguments[0].naturalWidth > 0", picture))

    until(lambda: drawn("status sheet"), say="the status sheet's preview")
    # Type a mistake at the end of the file: the check runs by itself as typing stops.
    text = browser.find_element(By.ID, "class-text")
    text.send_keys(Keys.CONTROL, Keys.END)
    text.send_keys("\nfunnels: three\n")
    until(lambda: state.text == "Problems found:", say="the typed error to be found")
    shown = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#check-lines li")]
    typed = str(browser.execute_script("return arguments[0].value", text))
    mine.write_text(typed, encoding="utf-8")
    status, _, said = terminal(["check", mine.name], tmp_path)
    assert status == 2
    assert shown == [line for line in said.splitlines() if line.strip()]
    last = typed.rstrip("\n").count("\n") + 1
    assert shown[0] == f"my-fletcher.yaml:{last}:10: funnels: found 'three', expected a " \
        "whole number"
    # The located problem takes the cursor to its place: its line and column is 'three'.
    browser.find_element(By.CSS_SELECTOR, "#check-lines button.located").click()
    assert browser.switch_to.active_element == text
    assert browser.execute_script("const t = arguments[0]; return t.value.substring("
                                  "t.selectionStart, t.selectionEnd)", text) == "three"
    browser.execute_script("arguments[0].scrollIntoView({block: 'start'})", text)
    shot(browser, "class")


# --- players: an odds question, asked and answered from the keyboard ---------------------------

def test_odds_asked_from_the_keyboard_gets_the_exact_answer(browser: Any, server: str) -> None:
    from generator.web.forms import form_of

    browser.get(server + "/")
    browser.find_element(By.LINK_TEXT, "Calculators").click()
    browser.find_element(By.LINK_TEXT, "odds").click()
    assert unlabelled(browser) == []
    # Tab from the top of the page: the skip link, the menu, then every field in order.
    browser.get(browser.current_url)
    order = []
    for _ in range(40):
        browser.switch_to.active_element.send_keys(Keys.TAB)
        focused = browser.switch_to.active_element
        order.append(focused.get_attribute("id") or focused.text)
        if focused.tag_name == "button":
            break
    odds = main.get_command(None, "odds")  # type: ignore[arg-type]
    fields = [f"f-{f.name}" for f in form_of(odds, "odds").fields]
    assert order[:6] == ["Skip to the page", "quarterdeck", "Scenarios", "Calculators",
                         "Event", "Class editor"]
    assert order[6:] == [*fields, "Ask"]
    question = {"firer": "Chokai", "target": "Astoria", "scenario": "savo-island"}
    for name, value in question.items():
        browser.find_element(By.ID, f"f-{name}").send_keys(value)
    browser.find_element(By.ID, "f-scenario").send_keys(Keys.ENTER)
    answer = until(lambda: browser.find_element(By.ID, "answer"), say="the answer")
    shown = str(answer.get_attribute("textContent"))
    status, answered, _ = terminal(["odds", *(f"--{k}={v}" for k, v in question.items())])
    assert status == 0 and shown == answered
    assert "995/1296" in shown
    shot(browser, "odds")


def test_every_page_labels_its_fields(browser: Any, server: str) -> None:
    for page in ("/", f"/run/markers?scenario={SMALL}", f"/run/strings?scenario={SMALL}",
                 "/run/modern-odds", "/run/bombing", "/event"):
        browser.get(server + page)
        assert browser.find_elements(By.TAG_NAME, "h1"), page
        assert unlabelled(browser) == [], page


def test_no_browser_is_a_skip_here_and_a_failure_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys.modules[__name__], "CHROMIUM", Path("/nowhere/chromium"))
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"^no /nowhere/chromium \(apt-get "
                       r"install chromium chromium-driver\)$"):
        _need_a_browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="^CI must have this tool: "
                       "no /nowhere/chromium"):
        _need_a_browser()
