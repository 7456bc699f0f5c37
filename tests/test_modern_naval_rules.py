"""Modern naval rules: tables, calculator, card, markers, aids and dice.

Every probability is checked against brute-force enumeration of the dice
(``itertools.product``, exact fractions) with the rule text's numbers written out here,
independently of ``rules.yaml``; the printed tables are read back from the PDF.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from generator.rulesets.modern_naval import combat, control, damage, detection
from generator.rulesets.modern_naval.model import Conditions, UnitView, WeaponView
from generator.rulesets.modern_naval.tables import Tables, bundled_tables, load_tables

D10 = range(1, 11)
D20 = range(1, 21)


def frac(hits: int, total: int) -> Fraction:
    """An exact chance."""
    return Fraction(hits, total)


@pytest.fixture(scope="module")
def tables() -> Tables:
    """The bundled tables."""
    return bundled_tables()


@pytest.fixture(scope="module")
def saar() -> UnitView:
    """A Sa'ar 3 boat with Gabriel missiles and a 76 mm gun."""
    return UnitView(
        id="saar-3", name="Sa'ar 3", category="ship", size="small", crew=2, fcs=2, ecm=1,
        speed=6, mvr=4, damage=1,
        weapons=(WeaponView(name="Gabriel", kind="missile", seeker="SARH", generation=1,
                            range_cm=(5, 100), damage=2, ammunition=5),
                 WeaponView(name="76mm", kind="gun", range_cm=(0, 40), damage=0,
                            targets=frozenset({"surface", "air"}), mounts=2)))


@pytest.fixture(scope="module")
def osa() -> UnitView:
    """An Osa boat with P-15 Termit missiles."""
    return UnitView(
        id="osa", name="Osa I", category="ship", size="small", crew=0, fcs=1, ecm=None,
        speed=6, mvr=4, damage=1,
        weapons=(WeaponView(name="P-15 Termit", kind="missile", seeker="ARH", generation=1,
                            range_cm=(10, 200), damage=3, ammunition=4),
                 WeaponView(name="AK-230", kind="gun", range_cm=(0, 20), damage=-1,
                            targets=frozenset({"surface", "air"}), mounts=2)))


@pytest.fixture(scope="module")
def a4() -> UnitView:
    """An A-4 Skyhawk with bombs."""
    return UnitView(
        id="a-4", name="A-4 Skyhawk", category="aircraft", size="small", crew=1, fcs=1,
        ecm=1, speed=0, mvr=0, damage=0,
        weapons=(WeaponView(name="Mk 82 bombs", kind="bomb", range_cm=(0, 2), damage=2),
                 WeaponView(name="20mm", kind="gun", range_cm=(0, 10), damage=-2,
                            targets=frozenset({"surface", "air"}))))


# -- the to-hit roll --------------------------------------------------------------------------


def d20_at_least(modifier: int, needed: int = 11) -> Fraction:
    """Brute force: one d20 plus the modifier reaching the score."""
    return frac(sum(1 for (f,) in itertools.product(D20) if f + modifier >= needed), 20)


def test_gabriel_against_osa(tables: Tables, saar: UnitView, osa: UnitView) -> None:
    # SARH 1st against no ECM: 0 (DEFAULT); small -2; 5 speed markers -2; crew +2.
    s = combat.shot(tables, saar, saar.weapons[0], osa, Conditions(target_speed=5))
    assert s is not None and s.table == "missile"
    assert s.total == 0 - 2 - 2 + 2
    assert s.needed == 11
    assert s.chance == d20_at_least(-2) == Fraction(2, 5)


def test_termit_against_saar_with_ecm(tables: Tables, saar: UnitView, osa: UnitView) -> None:
    # ARH 1st against ECM 1st: -6; small -2; 6 speed markers -5; crew 0: cannot reach 11.
    s = combat.shot(tables, osa, osa.weapons[0], saar, Conditions(target_speed=6))
    assert s is not None
    assert s.total == -13
    assert s.chance == d20_at_least(-13) == 0
    # Against a slow target the speed row gives +5 (1 or 2 markers).
    s = combat.shot(tables, osa, osa.weapons[0], saar, Conditions(target_speed=1))
    assert s is not None and s.total == -6 - 2 + 5
    assert s.chance == d20_at_least(-3)


@pytest.mark.parametrize("sea, target_speed, fires", [(3, 2, 0), (4, 5, 1), (6, 0, 2),
                                                      (5, 3, 0)])
def test_gun_ship_against_ship(tables: Tables, saar: UnitView, osa: UnitView, sea: int,
                               target_speed: int, fires: int) -> None:
    # Ship against ship: every group applies.
    c = Conditions(sea_state=sea, target_speed=target_speed, shooter_speed=2,
                   shooter_fires=fires)
    s = combat.shot(tables, saar, saar.weapons[1], osa, c)
    assert s is not None and s.attack == "Ship vs ship"
    expected = (2 - 2 + 0 + {0: 8, 1: 5, 2: 5, 3: 2, 4: 0, 5: -2, 6: -5}[target_speed] + 3
                + {3: 0, 4: -4, 5: -5, 6: -6}[sea] + 1 - fires)
    assert s.total == expected
    assert s.chance == d20_at_least(expected)


def test_bombs_use_only_their_groups(tables: Tables, a4: UnitView, osa: UnitView) -> None:
    # Bombs: crew +1, size small -2, target speed 3 +2, FCS 1st +2, sea state 5 -5; the
    # shooter's speed markers and fires are not in the bombs' groups.
    c = Conditions(sea_state=5, target_speed=3, shooter_speed=6, shooter_fires=3)
    s = combat.shot(tables, a4, a4.weapons[0], osa, c)
    assert s is not None and s.attack == "Bombs"
    assert s.total == 1 - 2 + 2 + 2 - 5
    assert s.chance == d20_at_least(-2)


def test_ship_gun_against_air(tables: Tables, saar: UnitView, a4: UnitView) -> None:
    # Ship gun vs air: crew +2, size small -2, shooter 5 markers -2, air target +0,
    # FCS 2nd +3, multiple mounts +1, one fire -1.
    c = Conditions(shooter_speed=5, shooter_fires=1)
    s = combat.shot(tables, saar, saar.weapons[1], a4, c)
    assert s is not None and s.attack == "Ship gun vs air"
    assert s.total == 2 - 2 - 2 + 0 + 3 + 1 - 1
    assert s.chance == d20_at_least(1)


def test_sam_against_aircraft(tables: Tables, a4: UnitView) -> None:
    ship = UnitView(id="x", name="x", category="ship", size="medium", crew=-1, fcs=2,
                    weapons=(WeaponView(name="Sea Dart", kind="sam", seeker="SARH",
                                        generation=2, targets=frozenset({"air", "missile"})),))
    # SARH 2nd against the aircraft's FCS 1st: -3; crew -1; small -2; two fires -2 (SARH).
    s = combat.shot(tables, ship, ship.weapons[0], a4, Conditions(shooter_fires=2))
    assert s is not None and s.table == "sam"
    assert s.total == -3 - 1 - 2 - 2
    assert s.chance == d20_at_least(-8)
    # Against a missile: no grid column (no ECM, DEFAULT 0), no size, -5.
    m = combat.against_missile(tables, ship, ship.weapons[0], Conditions())
    assert m is not None and m.total == -1 - 5
    assert m.chance == d20_at_least(-6)


def test_ir_only_third_generation_ecm(tables: Tables, osa: UnitView) -> None:
    # IR: n/a, n/a, -2 (n/a adds nothing: DEFAULT).
    ir = WeaponView(name="ir", kind="missile", seeker="IR")
    for ecm, cell in ((1, 0), (2, 0), (3, -2)):
        target = UnitView(id="t", name="t", category="ship", size="medium", ecm=ecm)
        s = combat.shot(tables, osa, ir, target, Conditions(target_speed=4))
        assert s is not None and s.total == cell


def test_cannot_engage(tables: Tables, osa: UnitView, a4: UnitView) -> None:
    assert combat.shot(tables, osa, osa.weapons[0], a4, Conditions()) is None


# -- detection ----------------------------------------------------------------------------------


def test_radar_and_visual(tables: Tables, saar: UnitView, a4: UnitView) -> None:
    c = Conditions(sea_state=6, shooter_speed=5, fog=True)
    a = detection.attempt(tables, "radar", saar, c, land_behind=True, vessels_between=2)
    assert a is not None
    # crew +2, land -1, two vessels -2, sea 6 -2, FCS 2nd 0, fast -1
    assert a.total == 2 - 1 - 2 - 2 - 1
    assert a.chance == frac(sum(1 for (f,) in itertools.product(D10) if f - 4 >= 6), 10)
    assert a.limit_cm == 80          # small; radar is not halved in fog
    v = detection.attempt(tables, "visual", saar, c, target_aircraft=True)
    assert v is not None and v.limit_cm == (40 + 10) / 2
    assert v.total == 2 - 2 - 1
    assert detection.attempt(tables, "visual", saar, c, range_cm=26) is None
    air = detection.attempt(tables, "radar", a4, Conditions(), altitude="high",
                            target_aircraft=True)
    assert air is not None and air.limit_cm == 140 + 20


# -- damage -------------------------------------------------------------------------------------


def level_of(score: int) -> str:
    """The text's basic damage levels, written out."""
    if score <= 0:
        return "intact"
    if score <= 3:
        return "light"
    if score <= 6:
        return "heavy"
    if score <= 9:
        return "critical"
    return "wrecked"


KO = {"light": 9, "heavy": 6, "critical": 3}
TRIGGER = {"heavy": 6, "critical": 3}
LOSS = {"heavy": {1: 1, 7: 2, 10: 3}, "critical": {1: 2, 7: 3, 10: 4}}


def loss(level: str, roll: int) -> int:
    """Speed levels lost on the further d10."""
    table = LOSS[level]
    return table[max(k for k in table if k <= roll)]


@pytest.mark.parametrize("modifier", [-4, -1, 0, 2, 5, 9])
def test_damage_levels_and_knock_out(tables: Tables, modifier: int) -> None:
    counts: dict[str, int] = {}
    knocked = 0
    for basic, ko in itertools.product(D10, D10):
        level = level_of(basic + modifier)
        counts[level] = counts.get(level, 0) + 1
        knocked += level in KO and ko >= KO[level]
    got = damage.level_odds(tables, modifier)
    assert {k: v for k, v in got.items() if v} == {k: frac(n, 100) for k, n in counts.items()}
    assert damage.knock_out(tables, modifier) == frac(knocked, 100)


@pytest.mark.parametrize("modifier", [0, 3, 6])
def test_speed_and_mvr_losses(tables: Tables, modifier: int) -> None:
    counts: dict[int, int] = {}
    for basic, trigger, further in itertools.product(D10, D10, D10):
        level = level_of(basic + modifier)
        lost = loss(level, further) if level in TRIGGER and trigger >= TRIGGER[level] else 0
        counts[lost] = counts.get(lost, 0) + 1
    assert damage.mobility_odds(tables, modifier) == {k: frac(n, 1000)
                                                      for k, n in sorted(counts.items())}
    assert damage.mobility_odds(tables, modifier, "mvr") == {
        2 * k: frac(n, 1000) for k, n in sorted(counts.items())}


@pytest.mark.parametrize("optional", [False, True])
def test_special_damage(tables: Tables, optional: bool) -> None:
    names = {6: "demoralisation", 7: "propulsion", 8: "blackout", 9: "helm", 10: "fire"}
    counts: dict[str, int] = {}
    for basic, special in itertools.product(D10, D10):
        if level_of(basic - 2) == "intact":
            key = "none"
        elif special == 1 and optional:
            key = "optional_fire"
        else:
            key = names.get(special, "none")
        counts[key] = counts.get(key, 0) + 1
    got = damage.special_odds(tables, -2, optional)
    assert {k: v for k, v in got.items() if v} == {k: frac(n, 100) for k, n in counts.items()}


def test_damage_modifiers(tables: Tables) -> None:
    assert damage.hit_modifier(tables, target_damage=-1, weapon_damage=3, state="heavy") == 4
    assert damage.hit_modifier(tables, target_damage=0, weapon_damage=1,
                               aircraft_markers=2, aircraft=True) == 3
    fate = damage.aircraft_odds(tables, 0)
    assert fate == {"continues": 0, "leaves": frac(3, 10), "lost": frac(7, 10)}


# -- damage control and initiative -------------------------------------------------------


@pytest.mark.parametrize("crew", [-3, -2, 0, 1, 2])
def test_damage_control(tables: Tables, crew: int) -> None:
    counts = {"repaired": 0, "none": 0, "worse": 0}
    for (f,) in itertools.product(D10):
        score = f + crew
        counts["repaired" if score >= 8 else "worse" if score <= 3 else "none"] += 1
    assert control.control_odds(tables, crew) == {k: frac(n, 10) for k, n in counts.items()}


@pytest.mark.parametrize("ours, theirs", [(0, 0), (2, -2), (-2, 4)])
def test_initiative(tables: Tables, ours: int, theirs: int) -> None:
    rolls = list(itertools.product(D10, D10))
    win = sum(a + ours > b + theirs for a, b in rolls)
    tie = sum(a + ours == b + theirs for a, b in rolls)
    assert control.initiative_odds(tables, ours, theirs) == (
        frac(win, 100), frac(tie, 100), frac(100 - win - tie, 100))


# -- --tables -----------------------------------------------------------------------------------


def test_tables_override_changes_the_hit_score(tmp_path: Path, saar: UnitView,
                                               osa: UnitView) -> None:
    user = tmp_path / "t.yaml"
    user.write_text("to_hit: {die: d20, score: 9}\n")
    t = load_tables(user)
    s = combat.shot(t, saar, saar.weapons[0], osa, Conditions(target_speed=5))
    assert s is not None and s.needed == 9 and s.chance == d20_at_least(-2, 9)


def test_tables_override_error_is_located(tmp_path: Path) -> None:
    from generator.errors import DataError

    user = tmp_path / "t.yaml"
    user.write_text("to_hit:\n  die: d20\n  score: 99\n")
    with pytest.raises(DataError) as err:
        load_tables(user)
    assert [str(p) for p in err.value.problems] == [
        f"{user}:3:10: to_hit.score: found 99, expected a number of at most 60"]
