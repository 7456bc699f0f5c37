"""NAVAL ACTION's odds index: kept in the user cache, it answers as the tables would.

``quarterdeck odds`` keeps an ``OddsIndex`` (every ship a question can name, and a
calculator holding every result those ships can be asked for), so a new question loads
no schema, tables or dice library. These tests hold it to the answers of a calculator
that reads the tables, for every pair of ships of every bundled scenario and for ships
named by class.
"""

from __future__ import annotations

import pickle
import random
from pathlib import Path

import pytest

from generator.core.errors import UsageError
from generator.data.library import Library, checked_key, validated_library
from generator.rulesets.naval_action import cardtables
from generator.rulesets.naval_action.ask import Answer, OddsIndex, answer, odds_index
from generator.rulesets.naval_action.odds import Calculator


@pytest.fixture(scope="module")
def library() -> Library:
    return validated_library([], checked_key([]))


@pytest.fixture(scope="module")
def kept(library: Library) -> OddsIndex:
    """A complete index as the user cache gives it back: pickled and read again."""
    index = odds_index(library, None, True)
    assert index.complete
    thawed = pickle.loads(pickle.dumps(index))
    assert isinstance(thawed, OddsIndex) and thawed.calc._tables is None
    return thawed


def _figures(a: Answer) -> tuple[object, ...]:
    """Everything an answer prints, beyond the names."""
    return (a.firer, a.target, a.guns, a.torpedoes, a.bands, a.sea_state, a.situational,
            [a.calc.hit_chances(o.accuracy) for m in a.guns for o in m.bands.values()])


def _questions(index: OddsIndex) -> list[tuple[str, str, str | None]]:
    """Every pair of each scenario's ships, and 150 pairs of ships named by class."""
    asked: list[tuple[str, str, str | None]] = [
        (f.name, t.name, sid) for sid, s in index.scenarios.items()
        for f in s.members for t in s.members]
    names = [f"{cid}:{m.name}" for cid, members in index.classes.items() for m in members]
    pick = random.Random(7)
    asked += [(pick.choice(names), pick.choice(names), None) for _ in range(150)]
    return asked


def test_a_kept_index_answers_every_question_without_its_tables(
        library: Library, kept: OddsIndex) -> None:
    questions = _questions(kept)
    # Indexes that compute each result from the tables, one per scenario (and one for
    # ships named by class), as a question asked without the user cache builds them.
    fresh = {sid: odds_index(library, None, False, sid) for sid in {q[2] for q in questions}}
    assert len(questions) > 1000 and {sid for *_, sid in questions} >= {
        "savo-island", "komandorski", "second-sirte", "sunda-strait", None}
    for firer, target, sid in questions:
        for battery, band in ((None, None), ("torpedo", "close")):
            assert _figures(answer(kept, firer, target, battery, band, sid)) == \
                _figures(answer(fresh[sid], firer, target, battery, band, sid)), \
                (firer, target)
    # Every result was in the index: its tables were never read.
    assert kept.calc._tables is None and all(f.calc._tables is not None
                                             for f in fresh.values())
    # An index for one question holds only what it can name.
    assert not fresh["savo-island"].classes and list(fresh["savo-island"].scenarios) == [
        "savo-island"]
    assert fresh[None].classes and not fresh[None].scenarios


def test_a_result_the_index_lacks_is_computed_from_the_tables(library: Library) -> None:
    index = pickle.loads(pickle.dumps(odds_index(library, None, False, "savo-island")))
    assert index.calc._tables is None
    got = answer(index, "Chokai", "Astoria", "BOW", "long", "savo-island")
    assert index.calc._tables is not None  # read again on the first miss
    fresh = answer(odds_index(library, None, False, "savo-island"), "Chokai", "Astoria",
                   "BOW", "long", "savo-island")
    assert _figures(got) == _figures(fresh) and len(got.guns) == 1


def test_names_resolve_as_the_library_does(kept: OddsIndex) -> None:
    # Accents, case and aka are folded; a name two classes share needs CLASS:NAME.
    assert answer(kept, "chōkai", "ASTORIA", None, None, "savo-island").firer.name == "Chōkai"
    with pytest.raises(UsageError) as err:
        answer(kept, "Astoria", "Kako", None, None, None)
    assert str(err.value) == ("'Astoria' (--firer) is a ship of several classes: cleveland, "
                              "new-orleans; write CLASS:NAME (e.g. cleveland:Astoria) or "
                              "give --scenario")
    assert answer(kept, "new-orleans:Astoria", "Kako", None, None, None).firer.class_name \
        == "New Orleans"
    with pytest.raises(UsageError) as err:
        answer(kept, "Chokai", "Ralph Talbott", None, None, "savo-island")
    assert str(err.value) == ("no ship 'Ralph Talbott' in Battle of Savo Island (--target); "
                              "did you mean 'Ralph Talbot'?")
    with pytest.raises(UsageError) as err:
        answer(kept, "Chokai", "Helm", None, None, "savo-islnd")
    assert str(err.value).startswith("no scenario 'savo-islnd'; did you mean 'savo-island'")


def test_a_users_tables_file_is_read_again_for_a_result_the_index_lacks(
        library: Library, tmp_path: Path) -> None:
    card = Path(cardtables.__file__).parent / "tables" / "action-card.yaml"
    text = card.read_text(encoding="utf-8")
    start = text.index("\npenetration:\n") + 1
    section = text[start:text.index("\ntorpedo_hits:\n", start) + 1]
    house = tmp_path / "house.yaml"
    # Every damaging result of the penetration rows made a sinking: other odds for sure.
    house.write_text("".join(
        line.replace('"(D)"', '"S"').replace('"D"', '"S"').replace('"HD"', '"S"')
        if line.strip()[:1].isdigit() else line
        for line in section.splitlines(keepends=True)), encoding="utf-8")
    loaded = cardtables.load_tables(house)
    with pytest.raises(ValueError, match="only with its source"):
        pickle.dumps(Calculator(loaded))
    index = pickle.loads(pickle.dumps(odds_index(library, house, False, "savo-island")))
    assert index.calc.origin == "house.yaml"
    got = answer(index, "Chokai", "Astoria", None, None, "savo-island")
    assert index.calc.tables.origin == "house.yaml"
    assert _figures(got) == _figures(answer(odds_index(library, house, False, "savo-island"),
                                            "Chokai", "Astoria", None, None, "savo-island"))
    bundled = answer(odds_index(library, None, False, "savo-island"), "Chokai", "Astoria",
                     None, None, "savo-island")
    assert got.guns[0].bands["close"].damage != bundled.guns[0].bands["close"].damage
