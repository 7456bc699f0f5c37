"""The one label fitter (issue 28): it shortens, it never invents a name.

Unit tests pin the fitter's exact output ("14th Squadriglia" keeps its "14th"), the
distinguishing words a kit's labels give, and the warning for a label that cannot fit.
Then every label of every bundled kit, at every counter size its ruleset offers, is
checked: printed whole or as an honest abbreviation, at the floor or reported in the
build's warnings, and inside its piece 1 mm in from the cut (read back from a PDF).
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
    quoted,
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


def test_a_distinguishing_word_is_never_cut_and_the_label_is_reported() -> None:
    kit = ["14th Squadriglia", "15th Squadriglia", "14th Flotilla"]
    fitter = LabelFitter(kit)
    squadriglia = fitter.fit("counter.it-1", "14th Squadriglia", fonts.NARROW_BOLD, 7,
                             10.7 * MM)
    assert (squadriglia.text, squadriglia.size, squadriglia.failed) == \
        ("14th Squadriglia", 5.11, True)
    assert squadriglia.width <= 10.7 * MM
    fifteenth = fitter.fit("counter.it-2", "15th Squadriglia", fonts.NARROW_BOLD, 7,
                           10.7 * MM)
    assert (fifteenth.text, fifteenth.failed) == ("15th Squadri.", False)
    assert fitter.warnings == [
        "piece counter.it-1: label '14th Squadriglia' does not fit 10.70 mm even "
        "abbreviated at 6 pt; printed '14th Squadriglia' at 5.11 pt"]
    assert fitter.of(["counter.it-1", "counter.it-2"]) == tuple(fitter.warnings)


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


def telling_apart(text: str, labels: set[str]) -> set[str]:
    """Words of ``text`` another label needs it to keep: brute force, by the definition."""
    words = {_key(w) for w in text.split()}
    others = [{_key(w) for w in label.split()} for label in labels if label != text]
    return {w for w in words
            if any(words - {w} <= other and w not in other and other != words
                   for other in others)}


def honest(text: str, printed: str, keep: set[str]) -> bool:
    """``printed`` is ``text`` with only non-distinguishing words cut to 3+ letters and a stop."""
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
        if numeral or _key(word) in keep or not core.isalpha():
            return False
        if not (cut.startswith(word[:len(word) - len(word.lstrip(_EDGE))])
                and f"{stem}." in cut and len(stem) >= 3 and core.startswith(stem)
                and len(stem) < len(core)):
            return False
    return True


def test_the_check_rejects_what_the_old_abbreviator_printed() -> None:
    # outputs of the fitter before issue 28, each a name it is not
    labels = {"14th Squadriglia", "15th Squadriglia", "Kamikaze DD", "Kamikaze", "Fubuki DD",
              "Hyperion, Hasty, Hero, Hereward, Hostile", "previous turn"}
    for text, printed in [("14th Squadriglia", "1. Squadriglia"),
                          ("Hyperion, Hasty, Hero, Hereward, Hostile", "HHHHH"),
                          ("Kamikaze DD", "DD"), ("previous turn", "p. turn"),
                          ("Giovanni delle Bande Nere", "G. d. B. N.")]:
        assert not honest(text, printed, telling_apart(text, labels)), printed
    assert honest("14th Squadriglia", "14th Squadri.", telling_apart("14th Squadriglia", labels))
    assert not honest("Kamikaze DD", "Kam. DD", telling_apart("Kamikaze DD", labels))


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
            keep = telling_apart(fit.text, labels)
            where = (build.name, fit.piece, fit.text, fit.fitted.text)
            assert fit.fitted.text or fit.fitted.failed or not fit.text, where
            assert honest(fit.text, fit.fitted.text, keep), where
            assert fit.fitted.width <= fit.width + 1e-6, where
            checked += 1
    assert checked > 5000


def test_below_the_floor_only_when_reported_in_the_build(builds: list[Build]) -> None:
    reported = 0
    for build in builds:
        for fit in build.fits:
            if fit.fitted.size >= fit.floor - 1e-9:
                continue
            assert fit.fitted.failed, (build.name, fit.piece, fit.text)
            said = f"piece {fit.piece}: label {quoted(fit.text)} does not fit"
            assert any(w.startswith(said) for w in build.kit.warnings), (build.name, said)
            reported += 1
    # the Mediterranean's 14th Squadriglia, beside the 14th Flotilla, is one of them
    med = next(b for b in builds if b.name == "mediterranean-1940")
    assert any("label '14th Squadriglia' does not fit" in w for w in med.kit.warnings)
    assert reported


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
