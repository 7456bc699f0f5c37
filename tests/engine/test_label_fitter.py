"""The one label fitter (issue 28): it shortens, it never invents a name.

Unit tests pin the fitter's exact output ("14th Squadriglia" keeps its "14th"; "Bagley
DD" among Savo Island's labels becomes "Bagl. DD"), the stems a kit's labels allow, and
the one grouped warning for a label that cannot fit. Then every label of every bundled
kit, at every counter size its ruleset offers, is checked: printed whole or as an honest
abbreviation (every stem still unique in its kit), at 6 pt or more unless reported in
the build's warnings, and inside its piece 1 mm in from the cut (read back from a PDF).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.errors import DataError
from generator.core.units import MM
from generator.data.library import load_library
from generator.kit.pipeline import Kit, compose
from generator.kit.seam import KitOptions, Request
from generator.pages import autofit
from generator.pages.autofit import (
    LABEL_FLOOR,
    SAFE_INSET,
    Fitted,
    LabelFitter,
    Vocabulary,
    abbreviations,
    fit_label,
    grouped,
    outcome,
    shrunk_size,
)
from generator.pieces.pieces import draw_face
from generator.rulesets.naval_warfare.schema import COUNTER_SIZES
from generator.rulesets.rule27.model import COUNTER_MAX_MM, COUNTER_MIN_MM
from tests.pdftext import open_pages

# -- the fitter ----------------------------------------------------------------------------


def test_14th_squadriglia_keeps_its_ordinal() -> None:
    fitted = fit_label("14th Squadriglia", fonts.NARROW_BOLD, 7, 10.7 * MM)
    # was "1. Squadriglia": the ordinal lost its digit to an initial
    assert (fitted.text, fitted.size, fitted.abbreviated, fitted.failed) == \
        ("14th Squadri.", 6.29, True, False)
    assert fitted.width <= 10.7 * MM


def test_numerals_and_ordinals_stay_whole() -> None:
    assert abbreviations("14th Squadriglia")[-1] == "14th Squ."
    assert abbreviations("No. 3 Squadron") == ["No. 3 Squadr.", "No. 3 Squad.", "No. 3 Squa.",
                                               "No. 3 Squ."]
    assert abbreviations("Third Battle Squadron")[-1] == "Third Bat. Squ."
    assert abbreviations("IV Gruppo Caccia")[-1] == "IV Gru. Cac."
    assert abbreviations("1st Cruiser Squadron")[-1] == "1st Cru. Squ."
    assert abbreviations("Z 23") == [] and abbreviations("I-58") == []


def test_no_word_is_dropped_or_reduced_to_an_initial() -> None:
    # was "HHHHH"
    forms = abbreviations("Hyperion, Hasty, Hero, Hereward, Hostile")
    assert forms[:4] == ["Hyperion, Hasty, Hero, Herewa., Hostile",
                         "Hyperi., Hasty, Hero, Herewa., Hostile",
                         "Hyperion, Hasty, Hero, Herew., Hostile",
                         "Hyper., Hasty, Hero, Herew., Hostile"]
    assert forms[-1] == "Hyp., Has., Hero, Her., Hos."
    assert all(len(word.strip(".,")) >= 3 for form in forms for word in form.split())


def test_distinguishing_words_are_those_telling_two_labels_apart() -> None:
    kit = Vocabulary(["14th Squadriglia", "15th Squadriglia", "14th Flotilla", "Hood",
                      "Giovanni delle Bande Nere"])
    assert kit.distinguishing("15th Squadriglia") == {"15th"}
    # "14th Flotilla" holds "14th" without "Squadriglia": that word tells them apart
    assert kit.distinguishing("14th Squadriglia") == {"14th", "squadriglia"}
    assert kit.distinguishing("Hood") == {"hood"}
    assert kit.distinguishing("Giovanni delle Bande Nere") == set()


def test_a_distinguishing_word_is_cut_to_a_stem_unique_in_its_kit() -> None:
    kit = ["14th Squadriglia", "15th Squadriglia", "14th Flotilla"]
    fitter = LabelFitter(kit)
    # "Squadriglia" tells it from "14th Flotilla"; "14th Squadri." still does
    squadriglia = fitter.fit("counter.it-1", "14th Squadriglia", fonts.NARROW_BOLD, 7,
                             10.7 * MM)
    assert (squadriglia.text, squadriglia.size, squadriglia.failed) == \
        ("14th Squadri.", 6.29, False)
    assert squadriglia.width <= 10.7 * MM
    assert fitter.warnings == []
    # "Ben. DD" could be either destroyer: Benham keeps the letter that tells them apart
    pair = Vocabulary(["Benham DD", "Benson DD", "Bagley DD"])
    assert abbreviations("Benham DD", kit=pair) == ["Benh. DD"]
    assert abbreviations("Bagley DD", kit=pair) == ["Bagl. DD", "Bag. DD"]
    assert not pair.tells_apart("Benham DD", "Ben. DD")
    assert not pair.tells_apart("Benham DD", "Benson DD")  # another label's very name
    assert pair.tells_apart("Benham DD", "Benha. DD")
    # a stem another label could be cut to is refused: "Kam. DD" beside "Kamome DD"
    ships = Vocabulary(["Kamikaze DD", "Kamome DD", "Kamikaze"])
    assert "Kam. DD" not in abbreviations("Kamikaze DD", kit=ships)
    assert "Kam. DD" in abbreviations("Kamikaze DD", kit=Vocabulary(["Kamikaze DD",
                                                                     "Kamikaze"]))


def test_a_label_with_no_honest_form_at_6pt_is_reported_once_for_its_pieces() -> None:
    fitter = LabelFitter(["Benham DD", "Benson DD"])
    room = fonts.string_width("Ben. DD", fonts.NARROW, LABEL_FLOOR)  # "Benh. DD" does not fit
    for ship in ("benham", "ellet", "lang", "wilson", "mayrant"):
        fitted = fitter.fit(f"ship.{ship}", "Benham DD", fonts.NARROW, LABEL_FLOOR, room)
    assert (fitted.text, fitted.failed) == ("Benh. DD", True)
    assert fitted.size < LABEL_FLOOR and fitted.width <= room
    assert fitter.warnings[0] == (f"piece ship.benham: label 'Benham DD' printed as "
                                  f"'Benh. DD' at {fitted.size:.2f} pt (below 6 pt)")
    assert fitter.of(["ship.ellet"]) == (fitter.warnings[1],)
    assert grouped(["a font is missing", *fitter.warnings, *fitter.warnings[:2]]) == [
        "a font is missing",
        f"label 'Benham DD' printed as 'Benh. DD' at {fitted.size:.2f} pt (below 6 pt) on 5 "
        "pieces: ship.benham, ship.ellet, ship.lang and 2 more"]
    assert grouped(fitter.warnings[:1]) == [
        f"label 'Benham DD' printed as 'Benh. DD' at {fitted.size:.2f} pt (below 6 pt) on 1 "
        "piece: ship.benham"]
    assert grouped(["piece ship.x: label 'Kamikaze DD' printed as 'Kam. DD' at 5.20 pt "
                    "(below 6 pt)"] * 2 + [
                    f"piece ship.{s}: label 'Kamikaze DD' printed as 'Kam. DD' at 5.20 pt "
                    "(below 6 pt)" for s in ("y", "z", "w")]) == [
        "label 'Kamikaze DD' printed as 'Kam. DD' at 5.20 pt (below 6 pt) on 4 pieces: "
        "ship.x, ship.y, ship.z and 1 more"]
    nothing = fitter.fit("ship.lang", "Benham DD", fonts.NARROW, LABEL_FLOOR, 0.0)
    assert outcome("Benham DD", nothing) == "label 'Benham DD' not printed (no room)"


def test_a_label_the_fitter_does_not_know_keeps_every_word() -> None:
    fitter = LabelFitter(["Hood"])
    fitted = fitter.fit("ship.x", "Giovanni delle Bande Nere", fonts.NARROW_BOLD, 7, 12 * MM)
    assert (fitted.text, fitted.size, fitted.failed) == ("Giovanni delle Bande Nere", 3.6,
                                                         True)


def test_shrink_step_alone() -> None:
    wide = fonts.string_width("Hatsushimo", fonts.NARROW, 7)
    assert shrunk_size("Hatsushimo", fonts.NARROW, 7, wide) == 7
    assert shrunk_size("Hatsushimo", fonts.NARROW, 7, wide / 2, floor=3) == pytest.approx(3.5)
    assert shrunk_size("Hatsushimo", fonts.NARROW, 7, wide / 4, floor=3) == 3


# -- every bundled label at every piece size -----------------------------------------------

_ORDINAL_WORDS = {"first", "second", "third", "fourth", "fifth", "sixth", "seventh",
                  "eighth", "ninth", "tenth", "no.", "no"}
_ROMAN = re.compile(r"^[IVXLCDM]+$")
_EDGE = ",.;:!?()[]{}'\"«»“”‘’"


def _key(word: str) -> str:
    return word.strip(_EDGE).casefold()


def _could_be(shown: str, word: str) -> bool:
    """Could ``shown`` be read as ``word`` (equal, or a stem with a stop it begins)?"""
    if _key(shown) == _key(word):
        return True
    core = shown.strip(_EDGE)
    return (shown[len(shown) - len(shown.lstrip(_EDGE)) + len(core):].startswith(".")
            and _key(word).startswith(core.casefold()))


def unique(text: str, printed: str, labels: set[str]) -> bool:
    """No other label of the kit could be read in ``printed``: brute force, by the rule."""
    shown = printed.split()
    return not any(len(other.split()) == len(shown)
                   and all(_could_be(a, b) for a, b in zip(shown, other.split(), strict=True))
                   for other in labels if other != text)


def honest(text: str, printed: str, labels: set[str]) -> bool:
    """``printed`` is ``text`` with words cut to 3+ letters and a stop, unique in the kit."""
    if printed == text:
        return True
    full, short = text.split(" "), printed.split(" ")
    if len(full) != len(short):
        return False
    for word, cut in zip(full, short, strict=True):
        if cut == word:
            continue
        core = word.strip(_EDGE)
        stem = cut.strip(_EDGE)
        numeral = (any(ch.isdigit() for ch in word) or bool(_ROMAN.match(core))
                   or core.casefold() in _ORDINAL_WORDS)
        if numeral or not core.isalpha():
            return False
        if not (cut.startswith(word[:len(word) - len(word.lstrip(_EDGE))])
                and f"{stem}." in cut and len(stem) >= 3 and core.startswith(stem)
                and len(stem) < len(core)):
            return False
    return unique(text, printed, labels)


def test_the_check_rejects_what_the_old_abbreviator_printed() -> None:
    # outputs of the fitter before issue 28, each a name it is not
    labels = {"14th Squadriglia", "15th Squadriglia", "Kamikaze DD", "Kamome DD", "Fubuki DD",
              "Hyperion, Hasty, Hero, Hereward, Hostile", "previous turn",
              "Giovanni delle Bande Nere"}
    for text, printed in [("14th Squadriglia", "1. Squadriglia"),
                          ("Hyperion, Hasty, Hero, Hereward, Hostile", "HHHHH"),
                          ("Kamikaze DD", "DD"), ("previous turn", "p. turn"),
                          ("Giovanni delle Bande Nere", "G. d. B. N."),
                          # a stem that is not unique in its kit
                          ("Kamikaze DD", "Kam. DD"), ("Kamikaze DD", "Kamome DD")]:
        assert not honest(text, printed, labels), printed
    assert honest("14th Squadriglia", "14th Squadri.", labels)
    assert honest("Kamikaze DD", "Kami. DD", labels)
    assert honest("previous turn", "pre. turn", labels)


@dataclass
class Fit:
    """One label fitted during a build."""

    piece: str
    text: str
    fitted: Fitted
    width: float
    floor: float


@dataclass
class Build:
    """A kit and every label fitted to make it."""

    name: str
    kit: Kit
    fits: list[Fit] = field(default_factory=list)


def _variants() -> Iterator[tuple[str, str, dict[str, str], float | None]]:
    """(scenario, ruleset, values for prepare, Naval Warfare counter size) to build."""
    library = load_library()
    for scenario, entry in sorted(library.scenarios.items()):
        ruleset = entry.model.ruleset
        if ruleset == "rule-27":
            yield scenario, ruleset, {}, None
            yield scenario, ruleset, {"counter": f"{COUNTER_MAX_MM:g}mm"}, None
            yield scenario, ruleset, {"counter": "smallest"}, None
        elif ruleset == "naval-warfare":
            for size in COUNTER_SIZES.values():
                yield scenario, ruleset, {}, size
        else:
            yield scenario, ruleset, {}, None


def _compose(scenario: str, values: dict[str, str]) -> Kit:
    return compose(Request("kit", scenario=scenario), export=True,
                   options=KitOptions(values=values))


@pytest.fixture(scope="module")
def builds() -> list[Build]:
    import generator.rulesets.naval_warfare.ruleset as naval_warfare

    out: list[Build] = []
    real_fit, real_owned = LabelFitter.fit, naval_warfare.owned_scenario
    current: list[Fit] = []

    def spy(self: LabelFitter, piece_id: str, text: str, font: str, size: float,
            width: float, floor: float = LABEL_FLOOR, abbreviate: bool = True) -> Fitted:
        fitted = real_fit(self, piece_id, text, font, size, width, floor, abbreviate)
        current.append(Fit(piece_id, text, fitted, width, floor))
        return fitted

    LabelFitter.fit = spy  # type: ignore[method-assign]
    # Components drawn earlier in the session must not come from the cache unfitted.
    patch = pytest.MonkeyPatch()
    patch.setenv("QUARTERDECK_NO_CACHE", "1")
    try:
        for scenario, _, values, counter in _variants():
            if counter is not None:
                def owned(*args: object, size: float = counter) -> object:
                    campaign, warnings = real_owned(*args)  # type: ignore[arg-type]
                    return campaign.model_copy(update={"counter_size": size}), warnings

                naval_warfare.owned_scenario = owned  # type: ignore[assignment]
            if values.get("counter") == "smallest":
                # The smallest counter the ruleset accepts for this order of battle.
                mm = COUNTER_MIN_MM
                while True:
                    try:
                        current.clear()
                        kit = _compose(scenario, {"counter": f"{mm:g}mm"})
                        break
                    except DataError:
                        mm += 0.5
                        assert mm <= COUNTER_MAX_MM
                name = f"{scenario} counter {mm:g}mm"
            else:
                current.clear()
                kit = _compose(scenario, values)
                size = values.get("counter") or (f"{counter / MM:.1f}mm" if counter else "")
                name = f"{scenario} counter {size}" if size else scenario
            naval_warfare.owned_scenario = real_owned
            out.append(Build(name, kit, list(current)))
    finally:
        patch.undo()
        LabelFitter.fit = real_fit  # type: ignore[method-assign]
        naval_warfare.owned_scenario = real_owned
    return out


def test_every_ruleset_and_size_is_built(builds: list[Build]) -> None:
    names = [b.name for b in builds]
    assert len(names) == len(set(names)) == len(list(_variants()))
    rulesets = {ruleset for _, ruleset, _, _ in _variants()}
    assert rulesets == {"naval-action", "surface-action", "naval-warfare", "modern-naval",
                        "rule-27"}
    # every build printed pieces, and every piece had its labels fitted here
    assert all(b.kit.pieces and b.fits for b in builds)


def test_every_label_is_whole_or_honestly_abbreviated(builds: list[Build]) -> None:
    checked = 0
    for build in builds:
        labels = {f.text for f in build.fits}
        for fit in build.fits:
            where = (build.name, fit.piece, fit.text, fit.fitted.text)
            assert fit.fitted.text or fit.fitted.failed or not fit.text, where
            assert honest(fit.text, fit.fitted.text, labels), where
            assert fit.fitted.width <= fit.width + 1e-6, where
            checked += 1
    assert checked > 5000


def test_below_the_floor_only_when_reported_in_the_build(builds: list[Build]) -> None:
    reported = 0
    for build in builds:
        below: dict[str, set[str]] = {}
        for fit in build.fits:
            # 6 pt for every label with an honest form fitting at 6 pt
            assert fit.fitted.failed == (fit.fitted.size < fit.floor - 1e-9) or (
                fit.fitted.failed and not fit.fitted.text), (build.name, fit.piece, fit.text)
            if fit.fitted.failed:
                below.setdefault(outcome(fit.text, fit.fitted, fit.floor), set()).add(fit.piece)
        # one warning per label and outcome, naming its pieces
        for said, pieces in below.items():
            found = [w for w in build.kit.warnings if w.startswith(f"{said} on ")]
            assert len(found) == 1, (build.name, said)
            count, _, names = found[0][len(said) + 4:].partition(": ")
            assert count == f"{len(pieces)} piece{'s' if len(pieces) > 1 else ''}"
            shown, _, more = names.partition(" and ")
            assert set(shown.split(", ")) <= pieces
            assert len(shown.split(", ")) == min(3, len(pieces))
            assert more == (f"{len(pieces) - 3} more" if len(pieces) > 3 else "")
            reported += 1
        assert not any(w.startswith("piece ") and ": label " in w for w in build.kit.warnings)
    assert reported
    # the default build (Savo Island): no label warning, nothing under 6 pt
    savo = next(b for b in builds if b.name == "savo-island")
    assert not any("label" in w for w in savo.kit.warnings)
    assert min(f.fitted.size for f in savo.fits if f.fitted.text) >= LABEL_FLOOR
    # Rule 27 (issue 30): a flotilla prints its short name and number, never its ships'
    # names cut below 6 pt ("Hyp., Has., Hero, Her., Hos." at 2.30 pt before)
    med = next(b for b in builds if b.name == "mediterranean-1940")
    assert not any("label" in w for w in med.kit.warnings)
    assert min(f.fitted.size for f in med.fits if f.fitted.text) >= LABEL_FLOOR


def _exact(build: Build, text: str) -> set[tuple[str, float]]:
    return {(f.fitted.text, f.fitted.size) for f in build.fits if f.text == text}


def test_exact_outputs_in_their_kits(builds: list[Build]) -> None:
    savo = next(b for b in builds if b.name == "savo-island")
    # beside "Benham DD" and "Kamikaze DD": the stem tells them apart
    assert _exact(savo, "Bagley DD") == {("Bagl. DD", 6.0)}
    assert _exact(savo, "Kamikaze DD") == {("Kam. DD", 6.0)}
    assert _exact(savo, "submerged") == {("submerged", 6.0), ("submer.", 6.0), ("submerg.", 6.0)}
    med = next(b for b in builds if b.name == "mediterranean-1940")
    # Rule 27 counters print the scenario's short forms whole (issue 30)
    assert _exact(med, "14th Sq.") == {("14th Sq.", 6.0)}
    assert "14th Flot." in {f.text for f in med.fits}


def _drawn(build: Build) -> list[tuple[str, float, float, str, list[dict[str, object]]]]:
    """Every face of every piece drawn alone on a page the size of its trim."""
    fonts.register()
    buffer = io.BytesIO()
    canvas = Canvas(buffer)
    faces = []
    for piece in build.kit.pieces:
        for art in (piece.front, piece.back):
            if art is None:
                continue
            canvas.setPageSize((piece.width, piece.height))
            draw_face(canvas, art, 0, 0, piece.width, piece.height)
            canvas.showPage()
            faces.append(piece)
    canvas.save()
    pages = open_pages(buffer.getvalue(), advance=True)
    return [(p.id, p.width, p.height, page.text, page.chars)
            for p, page in zip(faces, pages, strict=True)]


def _joined(word: str, chosen: set[str]) -> bool:
    """Is ``word`` one or more chosen words run together?"""
    ends = {0}
    for end in range(1, len(word) + 1):
        if any(word[start:end] in chosen for start in ends):
            ends.add(end)
    return len(word) in ends


def test_printed_labels_sit_1mm_inside_the_cut(builds: list[Build]) -> None:
    inset = SAFE_INSET * MM - 0.01 * MM
    for build in builds:
        texts: dict[str, str] = {}
        for pid, width, height, text, chars in _drawn(build):
            texts[pid] = texts.get(pid, "") + text
            for ch in chars:
                where = (build.name, pid, ch["text"])
                assert float(ch["x0"]) >= inset, where  # type: ignore[arg-type]
                assert float(ch["x1"]) <= width - inset, where  # type: ignore[arg-type]
                assert float(ch["top"]) >= inset, where  # type: ignore[arg-type]
                assert float(ch["bottom"]) <= height - inset, where  # type: ignore[arg-type]
        # every word a piece with labels prints is a word the fitter chose: no label goes
        # round it (a card's paragraphs are the word-wrapper's, not labels)
        chosen = {word for fit in build.fits for word in fit.fitted.text.split()}
        labelled = {fit.piece for fit in build.fits}
        for pid, text in texts.items():
            if pid not in labelled:
                continue
            # (two labels on one line may read back as one word: "1-0-0" and "US")
            strays = {w for w in text.split() if not _joined(w, chosen)}
            assert not strays, (build.name, pid, strays)


def test_fit_label_is_the_fitter_labelfitter_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = autofit.fit_label

    def counting(text: str, *args: object) -> Fitted:
        calls.append(text)
        return real(text, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(autofit, "fit_label", counting)
    LabelFitter().fit("p", "Hood", fonts.BOLD, 8, 20 * MM)
    assert calls == ["Hood"]
