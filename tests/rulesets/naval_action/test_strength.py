"""Comparative Strength (CS) measured from a class's facts, not its type label (issue 30).

The rule text fixes two anchors only (section IV, "Establishing Victory Conditions"): its
example sets two heavy cruisers worth 10 together against two destroyers worth 4 -- a
heavy cruiser is 5, a destroyer 2. quarterdeck's rule
(``derivation.yaml``, ``comparative_strength``) grows with firepower, belt and speed and
with nothing else, so no ship rates below one she matches or beats on all three.
"""

from __future__ import annotations

import itertools
import statistics

import pytest

from generator.data.library import load_library
from generator.rulesets.naval_action import derive
from generator.rulesets.naval_action.rating import firepower_lb, strength
from generator.rulesets.naval_action.schema import ShipClass

CLASSES = load_library().classes_of("naval-action")


def cls(class_id: str) -> ShipClass:
    """A bundled class as NAVAL ACTION rates it."""
    model: ShipClass = CLASSES[class_id].model
    return model


def cs(class_id: str) -> float:
    """The CS a status sheet prints for a bundled class."""
    return derive.comparative_strength(cls(class_id))


def test_the_text_anchors_a_heavy_cruiser_at_5_and_a_destroyer_at_2() -> None:
    # Takao: ten 8-in guns on the broadside, a 4-in belt -- the rule's reference ship.
    assert firepower_lb(cls("takao")) == 10 * 0.5 * 8 ** 3 == 2560
    assert cs("takao") == 5
    # Fletcher: five 5-in guns, no belt, 36.5 kn.
    assert firepower_lb(cls("fletcher")) == 5 * 0.5 * 5 ** 3
    assert cs("fletcher") == 2
    # And so the library at large: every heavy cruiser within a point of 5 (Deutschland,
    # 11-in guns, is 6) and the middle one 4.5 to 5; every destroyer within half a point
    # of 2, the middle one 2.
    by_type = {t: [derive.comparative_strength(e.model) for e in CLASSES.values()
                   if e.model.type.value == t] for t in ("CA", "DD")}
    assert 4 <= min(by_type["CA"]) and max(by_type["CA"]) <= 6
    assert 4.5 <= statistics.median(by_type["CA"]) <= 5
    assert 1.5 <= min(by_type["DD"]) and max(by_type["DD"]) <= 2.5
    assert statistics.median(by_type["DD"]) == 2


def _measures(model: ShipClass) -> tuple[float, float, float]:
    """What the property compares: firepower (main-gun broadside weight, and a carrier's
    strike aircraft, its main battery), belt armour and speed."""
    return firepower_lb(model), model.armor.belt_in, float(model.speed_kn)


def test_no_class_rates_below_one_it_dominates_on_guns_armour_and_speed() -> None:
    measured = {cid: (_measures(e.model), derive.comparative_strength(e.model))
                for cid, e in CLASSES.items()}
    inverted = []
    for (a, (ma, cs_a)), (b, (mb, cs_b)) in itertools.permutations(measured.items(), 2):
        dominates = all(x >= y for x, y in zip(ma, mb, strict=True)) and ma != mb
        if dominates and cs_a < cs_b:
            inverted.append(f"{a} {ma} CS {cs_a:g} < {b} {mb} CS {cs_b:g}")
    assert inverted == []
    # The property is not empty: most pairs of the library are ordered one way or the other.
    pairs = sum(all(x >= y for x, y in zip(ma, mb, strict=True)) and ma != mb
                for (ma, _), (mb, _) in itertools.permutations(measured.values(), 2))
    assert pairs > 1000


@pytest.mark.parametrize(("stronger", "weaker"), [
    # Issue 30: Hood and Renown rated 12 below Gangut, Cavour, Scharnhorst and Kongo (15).
    *[(bc, bb) for bc in ("hood", "renown")
      for bb in ("gangut", "conte-di-cavour", "scharnhorst", "kongo")],
    # Atlanta and Dido rated below Tenryu and Yubari; Navigatori above Le Fantasque, Fubuki.
    *[(aa, cl) for aa in ("atlanta", "dido") for cl in ("tenryu", "yubari")],
    ("le-fantasque", "navigatori"), ("fubuki", "navigatori"),
])
def test_the_inversions_the_issue_names_are_gone(stronger: str, weaker: str) -> None:
    assert cs(stronger) >= cs(weaker)


def test_hood_outrates_the_old_battleships_it_outguns() -> None:
    # Hood: 8 x 15-in on the broadside (8 x 0.5 x 15^3 = 13,500 lb), 12-in belt, 29 kn;
    # Gangut: 12 x 12-in (10,368 lb), 8.9-in belt, 23 kn.
    assert firepower_lb(cls("hood")) == 13500
    assert firepower_lb(cls("gangut")) == 10368
    # 5 x (13500/2560)^0.6 x (1 + 12/20)/(1 + 4/20) x (29/33)^0.5 = 16.9 -> 17;
    # 5 x (10368/2560)^0.6 x (1 + 8.9/20)/1.2 x (23/33)^0.5 = 11.7 -> 11.5.
    assert (cs("hood"), cs("gangut")) == (17, 11.5)


@pytest.mark.parametrize("carrier", ["ark-royal", "eagle"])
def test_ark_royal_and_eagle_are_rated(carrier: str) -> None:
    # Their guns now carry range and rounds; their strike aircraft count as firepower.
    model = cls(carrier)
    air = model.aircraft
    assert air is not None
    gun = max(b.bore_in for b in model.guns)
    broadside = max(sum(b.guns for b in model.guns if b.position.value in side)
                    for side in (("L",), ("R",)))
    assert firepower_lb(model) == broadside * 0.5 * gun ** 3 + 200 * (
        air.dive_bombers + air.torpedo_bombers)
    assert cs(carrier) > cs("fletcher")


def test_a_hand_set_cs_still_wins() -> None:
    data = cls("takao").model_dump(by_alias=True)
    data["comparative_strength"] = 7
    assert derive.comparative_strength(ShipClass.model_validate(data)) == 7


def test_the_text_s_unbalanced_action_comes_out_unbalanced() -> None:
    # Section IV names the Second Battle of Sirte as an unbalanced action (heavy Italian
    # units against British light cruisers and destroyers): the Italians must rate higher.
    from generator.data.library import validated_library
    from generator.rulesets.naval_action.rules import load_rules

    library = validated_library([])
    scenario = library.scenarios["second-sirte"].model
    left_out = {t.value for t in load_rules().strength_leaves_out}
    totals = {side.id: sum(cs(ref.class_) for ref in side.ships
                           if cls(ref.class_).type.value not in left_out)
              for side in scenario.sides}
    assert totals == {"british": 45, "italian": 52}


def test_the_card_s_typical_values_are_the_library_s() -> None:
    # The Action Card prints CS by type as a guide: each lies within the values that
    # type's ships rate in the library, and is their middle value to the half point.
    from generator.rulesets.naval_action.rules import load_rules

    guide = load_rules().comparative_strength_by_type
    by_type: dict[str, list[float]] = {}
    for entry in CLASSES.values():
        by_type.setdefault(entry.model.type.value, []).append(
            derive.comparative_strength(entry.model))
    for kind, values in by_type.items():
        assert min(values) <= guide[kind] <= max(values), kind
        middle = statistics.median(values)
        assert abs(guide[kind] - middle) <= 0.5, (kind, middle)


def test_rounding_never_reverses_an_order() -> None:
    # Each measure raised alone never lowers the CS (rounded half up to the 0.5 step).
    base = cls("fletcher").model_dump(by_alias=True)
    for key, values in (("speed_kn", [20, 30, 36.5, 40]),):
        seen = [strength(ShipClass.model_validate({**base, key: v})) for v in values]
        assert seen == sorted(seen)
    belts = [strength(ShipClass.model_validate({**base, "armor": {**base["armor"],
                                                                  "belt_in": b}}))
             for b in (0, 1, 3, 6, 12)]
    assert belts == sorted(belts) and belts[0] < belts[-1]
