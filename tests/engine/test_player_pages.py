"""Player sheets speak to players (issue 29, item 7): no option names or file talk on them.

Every bundled scenario's side packets (the pages one player holds: data sheets, matchups,
cards, aids, counters) are composed in memory and read back; none may name a command-line
option (``--tables``), a file (``.yaml``, "class file"), or a schema field (a word with an
underscore). Such notes belong on the referee's (umpire's, game control's) pages.

Any hit fails: there is no list of exceptions.
"""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from generator.core.units import MM
from generator.data.library import load_library
from generator.kit.pipeline import compose
from generator.kit.seam import Request
from tests.pdftext import open_pages

LIBRARY = load_library()
SCENARIOS = sorted(LIBRARY.scenarios)

FORBIDDEN = re.compile(
    r"--[a-z][a-z-]*"               # a command-line option
    r"|\b[\w-]+\.ya?ml\b"            # a data or tables file
    r"|\btables FILE\b"
    r"|\bclass file\b"
    r"|\bset by hand\b"             # which ratings an author chose: the referee's to know
    r"|\b[a-z]+(?:_[a-z0-9]+)+\b"   # a schema field name (fire_control, speed_in)
)
"""What a player's page must not say."""


def _lines(data: bytes) -> list[tuple[int, str]]:
    """(page number, line) for every line of text in a PDF."""
    pdf = pdfium.PdfDocument(data)
    try:
        return [(i + 1, line.strip()) for i in range(len(pdf))
                for line in pdf[i].get_textpage().get_text_range().splitlines()]
    finally:
        pdf.close()


_FOUND: dict[str, list[tuple[str, int, str]]] = {}


def _hits(scenario: str) -> list[tuple[str, int, str]]:
    """(file, page, line) of every forbidden line in the scenario's side packets (cached)."""
    if scenario not in _FOUND:
        request = Request("kit", scenario=scenario)
        model = LIBRARY.scenarios[scenario].model
        if hasattr(model, "sides"):  # only the side packets: the referee's pages are not read
            wanted = {f"{side.id}.pdf" for side in model.sides}
            kit = compose(request, library=LIBRARY, only=wanted)
        else:  # a campaign names its powers when it is prepared
            kit = compose(request, library=LIBRARY)
            wanted = {f"{side}.pdf" for side in kit.sides}
        assert wanted and set(kit.files) >= wanted  # every side's packet made, none skipped
        _FOUND[scenario] = [(name, page, line) for name in sorted(wanted)
                            for page, line in _lines(kit.files[name])
                            if FORBIDDEN.search(line)]
    return _FOUND[scenario]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_players_pages_name_no_option_file_or_field(scenario: str) -> None:
    unexplained = _hits(scenario)
    assert unexplained == []


def test_the_pattern_catches_what_it_is_for() -> None:
    """The check itself: each kind of talk is caught, the rules' own words are not."""
    caught = ["set by hand: type, guns, fire_control", "set by hand: radar",
              "Replace any table with --tables FILE.", "(replace with --tables)",
              "listed in its class file", "see charts.yaml", "Set night_sighting in a class"]
    assert all(FORBIDDEN.search(line) for line in caught)
    fine = ["Armor is added to a hitting weapon's power.", "2 P or 3 F: no guns",
            "0-6 in 6-12 in 12-18 in", "Seed 884021216, drawn from build seed 37212",
            "quarterdeck · Surface Action · River Plate"]
    assert not any(FORBIDDEN.search(line) for line in fine)


def test_the_referees_notes_stay_on_the_referees_pages() -> None:
    """Surface Action's ratings set by hand: named in words on the referee's briefing."""
    kit = compose(Request("kit", scenario="river-plate"), library=LIBRARY,
                  only={"referee.pdf", "british.pdf"})
    referee = [line for _, line in _lines(kit.files["referee.pdf"])]
    assert "Ratings set by hand" in referee
    assert ("Exeter (York CA): type, guns, torpedoes, size, armor, fire control, damage "
            "control, radar") in referee
    assert not any("set by hand" in line.lower() for _, line in _lines(kit.files["british.pdf"]))


# -- matchup pages are filled (issue 29, item 4) ------------------------------------------

FILLED = ["guadalcanal-battleships", "river-plate", "latakia-1973", "sheffield-1982",
          "savo-island", "second-sirte"]
"""Surface Action's, modern naval's and NAVAL ACTION's scenarios."""

ROOM_FOR_A_TABLE = 40 * MM
"""A firer's heading, column heads and a few rows: the least a table starts a page with."""


@pytest.mark.parametrize("scenario", FILLED)
def test_matchup_pages_start_a_firer_on_a_new_page_only_when_it_does_not_fit(
        scenario: str) -> None:
    """Firers follow one another down the page; every page but the last is full.

    Read back: on each page but the last, the space left between the lowest line and the
    footer is less than the next page needs for what it starts with (its first firer
    whole, or a table carried over), so no firer was sent to the next page while it
    would have fitted (two or more firers share a page wherever they fit).
    """
    files = sorted(f"matchups-{side.id}.pdf"
                   for side in LIBRARY.scenarios[scenario].model.sides)
    kit = compose(Request("tables", scenario=scenario), library=LIBRARY, only=set(files))
    assert set(kit.files) >= set(files)
    firers = 0
    for name in files:
        pages = open_pages(kit.files[name], geometry=True)
        for number, page in enumerate(pages, 1):
            words = page.extract_words()
            footer = max(w["top"] for w in words)
            body = [w for w in words if w["top"] < footer - 1]
            lowest = max([w["bottom"] for w in body]
                         + [r["bottom"] for r in page.rects if r["bottom"] < footer - 1])
            if number < len(pages):
                left = footer - lowest
                # the next page's first firer, whole: from its top to the next heading
                # (or to its lowest line); a table carried over starts at once
                following = pages[number]
                heads = sorted(w["top"] for w in following.extract_words()
                               if w["text"] == "against")
                nxt = following.extract_words()
                top = min(w["top"] for w in nxt)
                if heads and heads[0] - top < 6:  # "against" is set smaller
                    end = heads[1] if len(heads) > 1 else max(
                        w["bottom"] for w in nxt if w["top"] < max(v["top"] for v in nxt) - 1)
                    assert left < end - top, (name, number)
                else:
                    assert left < ROOM_FOR_A_TABLE, (name, number)
        # a firer's table is headed "Weapon" (Surface Action, modern) or the firer's
        # heading ends "against every enemy, resolved" (NAVAL ACTION)
        firers += sum(p.text.count("Weapon") + p.text.count("against every enemy, resolved")
                      for p in pages)
    # more firers than pages: they share pages
    assert firers > sum(len(open_pages(kit.files[f])) for f in files)
