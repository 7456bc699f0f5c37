"""Rules prose from the tables in force, and user templates (sandboxed, located errors)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
import pytest

from generator.core.errors import DataError
from generator.kit.pipeline import BuildResult, build
from generator.kit.seam import KitOptions
from generator.pages import templating
from generator.pages.markup import safe_markup
from tests.paths import ROOT

if TYPE_CHECKING:
    from tests.conftest import Kits

BRIEFING = "naval_action/briefing.md.j2"
MARKUP_NAME = 'Smith <b>& Co</b> <img src="/etc/passwd"/>'

NA_TABLES = """\
seas:
  default: true
  rough:
    - {sizes: "Escorts and smaller", accuracy: -3, speed: "1/4"}
  very-rough:
    - {sizes: "Everything afloat", accuracy: -4, speed: "1/5"}
visibility:
  default: true
  good_yd: 21000
  poor_yd: 17500
  bad_yd: 9000
  roll: {1: -10000, 2: -5000, 3: 0, 4: 0, 5: 5000, 6: 6000}
"""

SA_TABLES = """\
sighting:
  day_in: 29
  night_min_in: 5
  night_max_in: 17
  fire_bonus_in: 11
  starshell_in: 13
movement:
  yards_per_in: 1000
  knots_per_in: 6
  small_circle_in: 1.75
  small_cost_in: 0.75
  large_circle_in: 3.5
  large_cost_in: 1.5
  turn_step_deg: 30
  formation_max: 5
  formation_gap_in: 3
  formation_slowdown_in: 0.5
"""


def pdf_text(path: Path) -> str:
    """Every page's text, joined, with line breaks folded to spaces."""
    doc = pdfium.PdfDocument(path)
    try:
        text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()
    return " ".join(text.split())


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def markup_scenario(folder: Path) -> Path:
    """Second Sirte under another id, with paragraph markup in a rule and in orders.

    Only text the briefing alone prints carries the markup: the victory sheet prints the
    scenario's and sides' names unescaped (reported; not this module's).
    """
    source = (ROOT / "shipdata/naval_action/scenarios/second-sirte.yaml").read_text("utf-8")
    source = source.replace("id: second-sirte", "id: markup-trial")
    source = source.replace('"Your smoke drifts 1,000 yd north-west each turn."',
                            "'Rule <i>one</i> & <font size=40>two</font>'")
    source = source.replace("      Four merchant ships must reach Malta.",
                            f"      {MARKUP_NAME} Four merchant ships must reach Malta.")
    write(folder, "scenarios/markup-trial.yaml", source)
    return folder


# --- builds (one each, shared by the tests below) ---------------------------------------


@pytest.fixture(scope="module")
def sirte_tables(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """The markup scenario (rough seas, poor visibility) with a --tables file."""
    root = tmp_path_factory.mktemp("sirte")
    tables = write(root, "tables.yaml", NA_TABLES)
    return build("markup-trial", data=[markup_scenario(root / "data")], out=root / "out",
                 options=KitOptions(tables=tables))


@pytest.fixture(scope="module")
def sirte_bundled(kits: Kits) -> BuildResult:
    return kits.build("second-sirte")


@pytest.fixture(scope="module")
def plate_tables(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    root = tmp_path_factory.mktemp("plate")
    tables = write(root, "charts.yaml", SA_TABLES)
    return build("river-plate", out=root / "out", options=KitOptions(tables=tables))


def test_bundled_briefing_states_the_bundled_seas(sirte_bundled: BuildResult) -> None:
    text = pdf_text(sirte_bundled.folder / "referee.pdf")
    assert "Sea state: rough (DL and smaller: -1 accuracy, speed × 2/3)." in text
    assert "Visibility: poor (at most 30,000 yd, rolled each turn)." in text


def test_tables_file_changes_the_briefing(sirte_tables: BuildResult) -> None:
    for packet in ("referee.pdf", "british.pdf", "italian.pdf"):
        text = pdf_text(sirte_tables.folder / packet)
        assert "Sea state: rough (Escorts and smaller: -3 accuracy, speed × 1/4)." in text
        assert "Visibility: poor (at most 17,500 yd, rolled each turn)." in text
        assert "DL and smaller" not in text.split("Conditions")[1].split("Setting up")[0]


def test_user_values_are_printed_literally(sirte_tables: BuildResult) -> None:
    text = pdf_text(sirte_tables.folder / "referee.pdf")
    assert MARKUP_NAME in text
    assert "Rule <i>one</i> & <font size=40>two</font>" in text


def test_tables_file_changes_the_reference_card(plate_tables: BuildResult) -> None:
    text = pdf_text(plate_tables.folder / "referee.pdf")
    # the rules in brief (reference.md.j2) and the notes under the charts (chart-notes)
    assert "or is within 29 in of an enemy ship" in text
    assert "normal sighting range (5-17 in)" in text
    assert "Formations of up to 5 ships are formed on entry or at set-up, in one line, at "\
           "most 3 in apart" in text
    assert "Turning circle 1.75 in, 0.75 in of movement per 30° or part; BB and BC 3.5 in, " \
           "1.5 in per 30°." in text
    assert "within 36 in" not in text


# --- user templates ---------------------------------------------------------------------

USER_BRIEFING = """\
# USER BRIEFING {{ scenario.name }}
Sea: {{ tables.card.seas.rough[0].accuracy }}. Packet for
{{ side.name if side else "the referee" }}.
"""


def referee_briefing() -> str:
    """Second Sirte's referee briefing, rendered by its component alone (no whole kit)."""
    from generator.data.library import validated_library
    from generator.kit.seam import Request
    from generator.rulesets.naval_action import RULESET

    library = validated_library([])
    ctx = RULESET.prepare(library, Request("kit", scenario="second-sirte"), "a4", KitOptions())
    made = RULESET.component("briefing")(ctx, "referee")
    component = made.component if hasattr(made, "component") else made
    doc = pdfium.PdfDocument(component.pdf)
    try:
        text = "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    finally:
        doc.close()
    return " ".join(text.split())


def test_user_template_overrides_the_bundled_one(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    write(folder, BRIEFING, USER_BRIEFING)
    with templating.user_templates(folder):
        result = build("second-sirte", out=tmp_path / "out")
    text = pdf_text(result.folder / "referee.pdf")
    assert "USER BRIEFING Second Battle of Sirte Sea: -1. Packet for the referee." in text
    assert "Conditions" not in text.split("Ship status")[0]
    assert "USER BRIEFING Second Battle of Sirte Sea: -1. Packet for Force B and convoy MW10." \
        in pdf_text(result.folder / "british.pdf")
    # switched off again after the block: the referee's briefing, rendered as a build
    # renders it, is the bundled one
    assert "USER BRIEFING" not in referee_briefing()
    assert "Conditions" in referee_briefing()


def test_user_template_partial_include(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    write(folder, "naval_action/_greeting.md.j2", "Hello {{ scenario.name }}")
    write(folder, BRIEFING, "{% include 'naval_action/_greeting.md.j2' %} & more")
    with templating.user_templates(folder):
        text = templating.render_text(BRIEFING, scenario={"name": "<b>x</b>"})
    assert text == "Hello &lt;b&gt;x&lt;/b&gt; & more"


def problem_text(err: pytest.ExceptionInfo[DataError]) -> list[str]:
    return [str(p) for p in err.value.problems]


def folder_problems(folder: Path) -> list[str]:
    """What switching on a user's folder reports."""
    with pytest.raises(DataError) as err, templating.user_templates(folder):
        pass
    return problem_text(err)


def test_syntax_error_is_located(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    write(folder, BRIEFING, "# {{ scenario.name }}\nSea: {{ scenario.sea_state }\n")
    assert folder_problems(folder) == [
        f"{folder}/naval_action/briefing.md.j2:2:28: found unexpected '}}', expected Jinja2 "
        "template syntax"]


@pytest.mark.parametrize(("source", "message"), [
    # a syntax error: found when the folder is switched on, before anything is rendered
    ("{% if side %}\nno end\n",
     "2:1: found unexpected end of template; Jinja was looking for the following tags: "
     "'elif' or 'else' or 'endif'; The innermost block that needs to be closed is 'if', "
     "expected Jinja2 template syntax"),
    # a sandbox escape: found while rendering (in whichever process renders the briefing)
    ("# Briefing\n  {{ ''.__class__.__mro__[1].__subclasses__() }}\n",
     "2:9: found attribute '__class__' of a str value, expected only the values the "
     "template is given (the sandbox refuses Python internals, files and changes to "
     "values)"),
])
def test_bad_template_stops_the_build(tmp_path: Path, source: str, message: str) -> None:
    folder = tmp_path / "mine"
    write(folder, BRIEFING, source)
    with pytest.raises(DataError) as err, templating.user_templates(folder):
        build("second-sirte", out=tmp_path / "out")
    assert problem_text(err) == [f"{folder}/{BRIEFING}:{message}"]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("source", "message"), [
    ("{{ scenario.read_text() }}",
     "1:13: found attribute 'read_text' of a PosixPath value, expected only the values the "
     "template is given (the sandbox refuses Python internals, files and changes to values)"),
    ("x\n{{ items.append(1) }}",
     "2:10: found attribute 'append' of a list value, expected only the values the template "
     "is given (the sandbox refuses Python internals, files and changes to values)"),
    ("{{ 'a' * 10**7 }}",
     "1:1: found a repetition of more than 200,000 characters, expected a template within "
     "the sandbox's limits"),
    ("{{ 'a'.ljust(10**9) }}",
     "1:1: found the number 1000000000 as an argument, above 100,000, expected a template "
     "within the sandbox's limits"),
    ("{{ 'a' | center(10**9) }}",
     "1:1: found the number 1000000000 as an argument, above 100,000, expected a template "
     "within the sandbox's limits"),
    ("{{ '{:099999999}'.format(1) }}",
     "1:1: found a format with a width of 100,000 or more, expected a template within the "
     "sandbox's limits"),
    ("{% for i in range(9000) %}{% for j in range(9000) %}{% endfor %}{% endfor %}",
     "1:1: found more than 50,000 steps (calls, operators, loop items and the template "
     "text they run) in one rendering, expected a template within the sandbox's limits"),
    ("{% macro f() %}{{ f() }}{% endmacro %}{{ f() }}",
     "1:16: found calls of macros and recursive loops nested more than 50 deep, expected a "
     "template within the sandbox's limits"),
    ("{% include '../../secret.j2' %}",
     "1:13: found template '../../secret.j2', expected a template in the user's folder or "
     "the bundled ones"),
    ("ok\n  {{ scenari.name }}",
     "2:6: found undefined name 'scenari', expected one of the names the template is given: "
     "items, scenario; did you mean 'scenario'?"),
])
def test_refused_templates_are_located(tmp_path: Path, source: str, message: str) -> None:
    folder = tmp_path / "mine"
    write(folder, BRIEFING, source)
    write(tmp_path, "secret.j2", "secret")
    with pytest.raises(DataError) as err, templating.user_templates(folder):
        templating.render_text(BRIEFING, scenario=tmp_path / "secret.j2", items=[])
    assert problem_text(err) == [f"{folder}/{BRIEFING}:{message}"]


def test_symlink_out_of_the_folder_is_refused(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "mine"
    secret = write(tmp_path, "secret.j2", "secret")
    (folder / "naval_action").mkdir(parents=True)
    (folder / "naval_action" / "_secret.md.j2").symlink_to(secret)
    write(folder, BRIEFING, "{% include 'naval_action/_secret.md.j2' %}")
    assert folder_problems(folder) == [
        f"{folder}/naval_action/_secret.md.j2: found a link that leads out of the folder, "
        "expected a file inside it"]
    # the loader refuses it too, should the link appear after the check
    monkeypatch.setattr(templating, "check_user_dir", lambda folder: None)
    with pytest.raises(DataError) as err, templating.user_templates(folder):
        templating.render_text(BRIEFING)
    assert problem_text(err) == [
        f"{folder}/{BRIEFING}:1:13: found template 'naval_action/_secret.md.j2', expected a "
        "template in the user's folder or the bundled ones"]


def test_folder_problems_are_all_listed_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    write(folder, "naval_action/breifing.md.j2", "x")
    write(folder, "surface_action/reference.md.j2", "a" * (256 * 1024 + 1))
    (folder / "surface_action" / "briefing.md.j2").write_bytes(b"caf\xe9")
    with pytest.raises(DataError) as err, templating.user_templates(folder):
        pass
    known = ", ".join(templating.bundled_names())
    assert problem_text(err) == [
        f"{folder}/naval_action/breifing.md.j2: found a template no bundled one has the name "
        f"of, expected one of: {known}; did you mean 'naval_action/briefing.md.j2'? (name a "
        "partial for include '_...')",
        f"{folder}/surface_action/briefing.md.j2: found a byte that is not UTF-8 at offset 3, "
        "expected UTF-8 text",
        f"{folder}/surface_action/reference.md.j2: found 262,145 bytes, expected at most "
        "262,144",
    ]


def test_missing_folder(tmp_path: Path) -> None:
    assert folder_problems(tmp_path / "nope") == [
        f"{tmp_path}/nope: found no such folder, expected a folder of templates"]


def test_missing_block_in_chart_notes(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    write(folder, "surface_action/chart-notes.md.j2", "{% block flor %}x{% endblock %}")
    from generator.rulesets.surface_action.charts import load_charts
    from generator.rulesets.surface_action.components.reference_card import chart_notes
    with pytest.raises(DataError) as err, templating.user_templates(folder):
        chart_notes(load_charts())
    assert problem_text(err) == [
        f"{folder}/surface_action/chart-notes.md.j2: found no block 'long_range', expected "
        "blocks long_range, floor, blank, fires, thresholds, checks_title, night, turning"]


@pytest.mark.parametrize(("markup", "safe"), [
    ("<b>bold</b> and <i>it</i><br/>", "<b>bold</b> and <i>it</i><br/>"),
    ('<img src="/etc/passwd"/>', '&lt;img src="/etc/passwd"/&gt;'),
    ("<font name=x>a</font>", "&lt;font name=x&gt;a&lt;/font&gt;"),
    ("Q&A &amp; &lt; &#39; &bogus;", "Q&amp;A &amp; &lt; &#39; &amp;bogus;"),
    ("<b/>", "&lt;b/&gt;"),
    ("<b>open <i>both", "<b>open <i>both</i></b>"),
    ("</i>stray <b>x</i></b>", "&lt;/i&gt;stray <b>x&lt;/i&gt;</b>"),
])
def test_safe_markup(markup: str, safe: str) -> None:
    assert safe_markup(markup) == safe
