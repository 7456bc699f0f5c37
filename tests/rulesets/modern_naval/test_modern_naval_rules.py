"""Modern naval rules: tables, calculator, card, markers, aids and dice.

Every probability is checked against brute-force enumeration of the dice
(``itertools.product``, exact fractions) with the rule text's numbers written out here,
independently of ``rules.yaml``; the printed tables are read back from the PDF.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from generator.kit.seam import Context, KitOptions, Rendered, Request
from generator.rulesets.modern_naval import combat, control, damage, detection
from generator.rulesets.modern_naval.model import Conditions, UnitView, WeaponView
from generator.rulesets.modern_naval.ruleset import Derived
from generator.rulesets.modern_naval.tables import Tables, bundled_tables, load_tables

D10 = range(1, 11)
D20 = range(1, 21)


def frac(hits: int, total: int) -> Fraction:
    """An exact chance."""
    return Fraction(hits, total)


def _derived(**fields: Any) -> Derived:
    """The ruleset's derived data with the bundled tables and ``fields``."""
    from generator.rulesets.modern_naval.derive import load_tables as data_tables

    return Derived(data_tables(), **fields)


@pytest.fixture(scope="module")
def ctx(saar: UnitView, osa: UnitView, a4: UnitView) -> Context[Derived]:
    """A hand-made build context: Israel (two Sa'ar 3 and an A-4) against Syria (three Osa)."""
    return Context(Request("kit", "latakia"), "a4", KitOptions(seed=1),
                   sides={"israel": "Israel", "syria": "Syria"}, values={"scenario": "latakia"},
                   data=_derived(views={"israel": [saar, saar, a4], "syria": [osa, osa, osa]},
                                 conditions=Conditions(), foot="Latakia · test"))


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
    from generator.core.errors import DataError

    user = tmp_path / "t.yaml"
    user.write_text("to_hit:\n  die: d20\n  score: 99\n")
    with pytest.raises(DataError) as err:
        load_tables(user)
    assert [str(p) for p in err.value.problems] == [
        f"{user}:3:10: to_hit.score: found 99, expected a number of at most 60"]


# -- the reference card, read back ------------------------------------------------------------
# The text's tables are written here column by column and bottom-up (``up`` turns them
# back into printed lines, top-down): a row-by-row copy of labels would repeat the text's
# own wording at length. Each test finds every row as a printed line, in the text's order.


def pdf_lines(pdf: bytes) -> list[str]:
    """Every text line of a PDF, whitespace collapsed."""
    import pypdfium2

    doc = pypdfium2.PdfDocument(pdf)
    lines = []
    for page in doc:
        text = page.get_textpage().get_text_range()
        lines += [" ".join(line.split()) for line in text.splitlines()]
    return lines


def up(*columns: list[str]) -> list[str]:
    """Columns written bottom-up, as printed lines top-down (empty cells print nothing)."""
    return [" ".join(c for c in cells if c)
            for cells in zip(*[list(reversed(c)) for c in columns], strict=True)]


@pytest.fixture(scope="module")
def card_lines(tables: Tables) -> list[str]:
    """The reference card's lines."""
    from generator.rulesets.modern_naval.reference import render_reference

    return pdf_lines(render_reference(tables, "a4", "test").pdf)


def in_order(lines: list[str], expected: list[str]) -> None:
    """Every expected line is printed, in this order."""
    at = 0
    for line in expected:
        assert line in lines[at:], f"missing or out of order: {line!r}"
        at = lines.index(line, at) + 1


SIZES_UP = ["Very Large", "Large", "Medium", "Small", "Very Small"]
D20_SIZES_UP = ["+4", "+2", "+0", "-2", "-4"]


def test_card_movement_turning_initiative(card_lines: list[str]) -> None:
    in_order(card_lines, up(
        ["0", "6", "5", "4", "3", "2", "1"],
        ["Does not move but may drift",
         *[f"{low} and {high} cm" for low, high in ((25, 30), (20, 25), (15, 20), (10, 15),
                                                    (5, 10), (1, 5))]]))
    in_order(card_lines, up(["10", "8", "6", "4", "2", "MVR"],
                            ["10 cm", "8 cm", "6 cm", "4 cm", "2 cm", "Minimum Move"]))
    in_order(card_lines, up(
        ["Force has lost half of its Units", "Force has more models deployed on table",
         "Commander on table"], ["- 2", "+ 2", "+ 2 to - 2"]))


def test_card_turn_sequence(card_lines: list[str]) -> None:
    movement = up(["2e)", "2d)", "2c)", "2b)", "2a)"],
                  ["Move aircraft and helicopters a 2nd time", "Move autonomous torpedoes",
                   "Move vessels and guided torpedoes", "Move aircraft and helicopters",
                   "Move civilian vessels"])
    combat = up(["5e)", "5d)", "5c)", "5b)", "5a)"],
                ["Resolve incoming hits by missiles and torpedoes", "Fire CIWS",
                 "Deploy Countermeasures", "Shoot SAMs",
                 "Shoot guns and rockets, drop unguided bombs"])
    phases = up(["7", "6", "5", "4", "3", "2", "1"],
                ["End Phase", "Damage Control – can be done simultaneously", "Combat Phase",
                 "Launch Phase", "Spotting Phase", "Movement Phase", "Determine initiative"])
    in_order(card_lines, [*phases[:2], *movement, *phases[2:5], *combat, *phases[5:]])


def test_card_detection(card_lines: list[str]) -> None:
    in_order(card_lines, up(
        ["Contact Marker being detected is Aircraft type",
         "Very Large Aircraft detecting at High Altitude",
         "Large Aircraft detecting at Medium Altitude",
         "Medium Aircraft detecting at Low Altitude", "Small", "Very Small"],
        ["+20 cm", "140 cm", "120 cm", "100 cm", "80 cm", "60 cm"]))
    in_order(card_lines, up(
        ["Detecting vessel has 5 or 6 Speed Markers", "FCS is 3 rd Generation",
         "FCS is 1 st Generation", "If Sea State is 6", "If Sea State is 4 to 5",
         "If LOS is traced through another vessel",
         "If LOS to target extends beyond it to land within 30cm",
         "Crew Quality of detecting Unit"],
        ["- 1", "+ 1", "- 1", "- 2", "- 1", "- 1 per vessel", "- 1", "± 0 to 2"]))
    in_order(card_lines, up(
        ["Radar Contact being identified is Aircraft type",
         "Very Large Aircraft identifying from High Altitude",
         "Large Aircraft identifying from Medium Altitude",
         "Medium Aircraft identifying from Low Altitude", "Small", "Very Small"],
        ["+10 cm", "70 cm", "60 cm", "50 cm", "40 cm", "30 cm"]))
    in_order(card_lines, up(
        ["Identifying vessel has 5 or 6 Speed Markers", "If Sea State is 6",
         "If Sea State is 4 to 5", "Crew Quality of identifying Unit"],
        ["- 1", "- 2", "- 1", "± 0 to 2"]))


def test_card_combat_table(card_lines: list[str]) -> None:
    aa, sga, rocket, gun = ("Air vs air", "Ship gun vs air", "Air rocket vs ship",
                            "Air gun vs ship")
    labels = ["Rocket Pod or Salvo Rocket Launcher firing", "Firing vessel is on Fire",
              "Multiple Mounts", "6", "5", "4", "Sea State if greater than 3",
              "None", "3rd", "2nd", "1st Generation", "Fire Control System:",
              "6", "5", "4 or any air target", "3", "1 or 2", "0", "Target Speed Markers:",
              "6", "5", "1 to 4", "0", "Shooter Speed Markers:",
              *SIZES_UP, "Target Size:", "Crew Quality (firing Unit)"]
    values = ["-2", "-1 per Fire", "+1", "-6", "-5", "-4", "",
              "+0", "+4", "+3", "+2", "",
              "-5", "-2", "+0", "+2", "+5", "+8", "",
              "-5", "-2", "+0", "-4", "",
              *D20_SIZES_UP, "", "± 0 to 2"]
    used = [rocket, sga, sga, sga, rocket, gun, "Bombs",
            "", aa, sga, gun, "Bombs",
            "", "", aa, sga, rocket, gun, "Bombs",
            "", "", "", "", sga,
            "", aa, sga, rocket, gun, "Bombs", "All attacks"]
    in_order(card_lines, up(labels, values, used))


SEEKERS_UP = ["IR", "CMD (Wire)", "CMD (R)", "CMD (V)", "", "", "SARH", "", "", "ARH"]
GENS_UP = ["—", "—", "—", "—", "3rd", "2nd", "1st", "3rd", "2nd", "1st"]
ECM1_UP = ["n/a", "n/a", "-3", "n/a", "-1", "-3", "-5", "-2", "-4", "-6"]
ECM2_UP = ["n/a", "n/a", "-5", "n/a", "-3", "-5", "-7", "-4", "-6", "-8"]
ECM3_UP = ["-2", "n/a", "-8", "n/a", "-5", "-7", "-9", "-6", "-8", "-10"]


def test_card_sam_and_missile_tables(card_lines: list[str]) -> None:
    grid = up(SEEKERS_UP, GENS_UP, ECM1_UP, ECM2_UP, ECM3_UP)
    seekers = "CMD or SARH"
    fire = f"Firing vessel is on Fire -1 per Fire (only if using {seekers})"
    crew = "Crew Quality (firing ship) ± 0 to 2"
    in_order(card_lines, [
        "SAM Modifiers Table", *grid, crew, "Target Size:",
        *up(SIZES_UP[1:], D20_SIZES_UP[1:]), fire, "SAM vs Missile Target -5",
        "Very Large (DEFAULT) +4",
        "Missile Modifiers Table", *grid,
        *up(["", *SIZES_UP], ["", *D20_SIZES_UP], ["6", "5", "4", "3", "1 or 2", "0"],
            ["-5", "-2", "+0", "+2", "+5", "+8"]),
        crew, fire, "d20 11+ (DEFAULT)"])


def test_card_damage_tables(card_lines: list[str]) -> None:
    in_order(card_lines, up(
        ["Aircraft hit", "Target currently Critically Damage",
         "Target currently Heavily Damaged", "Target currently Lightly Damaged",
         "Weapon Damage Modifier (shown in the Weapon Data tables)",
         "Target Damage Modifier (shown in the Ship Data tables)"],
        ["+ 1 per damage marker", "+ 3", "+ 2", "+ 1", "± n", "± n"]))
    results = [line for line in card_lines
               if line.startswith(("0 or less ", "1 – 3 ", "4 – 6 ", "7 – 9 ", "10 or more "))]
    starts = up(["10 or more Wrecked", "7 – 9 Critical Damage", "4 – 6 Heavy Damage",
                 "1 – 3 Light Damage", "0 or less Intact"])
    assert len(results) == 5
    assert all(r.startswith(start) for r, start in zip(results, starts, strict=True))
    assert ["9+ knocks" in results[1], "6+ knocks" in results[2], "3+ knocks" in results[3]] \
        == [True] * 3
    in_order(card_lines, up(
        ["Critical Damage"] * 3 + ["Heavy Damage"] * 3, ["3+"] * 3 + ["6+"] * 3,
        ["10", "7 to 9", "1 to 6"] * 2, ["-4", "-3", "-2", "-3", "-2", "-1"],
        ["+8 cm", "+6 cm", "+4 cm", "+6 cm", "+4 cm", "+2 cm"]))
    in_order(card_lines, up(["1", "2 to 3", "4 to 6", "7 to 10"], ["4", "3", "2", "1"]))
    firsts = [line.split(" ")[0] for line in card_lines]
    assert {"6", "7", "8", "9", "10"} <= set(firsts)
    assert any(line.startswith("1 (or 2) – 5 ") for line in card_lines)
    in_order(card_lines, up(
        ["3 or lower", "4 to 7", "8 or more"], ["Systems: No effect"] * 2 + [
            "Systems: System repaired"],
        ["Fires: add a Fire.", "Fire: No change", "Fires: One Fire is extinguished"]))


def test_card_follows_tables_override(tmp_path: Path) -> None:
    from generator.rulesets.modern_naval.reference import render_reference

    user = tmp_path / "t.yaml"
    user.write_text("to_hit: {die: d20, score: 13}\n")
    lines = pdf_lines(render_reference(load_tables(user), "letter", "test").pdf)
    # The user's score is theirs: printed without the DEFAULT label.
    assert "d20 13+" in lines and "d20 13+ (DEFAULT)" not in lines


# -- markers --------------------------------------------------------------------------------


def art_bytes(art: object, width: float, height: float) -> bytes:
    """One face drawn alone on a page (an invariant PDF, so equal drawings give equal bytes)."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    c = Canvas(buffer, pagesize=(width, height), invariant=1)
    art(c, width, height, 0.0)  # type: ignore[operator]
    c.showPage()
    c.save()
    return buffer.getvalue()


@pytest.fixture(scope="module")
def israel_markers(ctx: Context) -> Rendered:
    """Israel's marker sheets."""
    from generator.rulesets.modern_naval.markers import markers

    return markers(ctx, "israel")


def test_contact_fronts_identical(israel_markers: Rendered) -> None:
    """Fronts are alike within a form; the aircraft form is its own (4.7's +20 cm reads it)."""
    contacts = [p for p in israel_markers.pieces if p.group == "contact"]
    # Three units, four dummies (the bundled count when the scenario gives none).
    assert len(contacts) == 3 + 4
    air = [p for p in contacts if p.title.startswith("Air contact")]
    surface = [p for p in contacts if p not in air]
    # One A-4 of three units: one dummy of four (4/3, rounded) in the aircraft form.
    assert (len(surface), len(air)) == (2 + 3, 1 + 1)
    for form in (surface, air):
        assert len({art_bytes(p.front, p.width, p.height) for p in form}) == 1
    assert art_bytes(air[0].front, 1, 1) != art_bytes(surface[0].front, 1, 1)
    backs = [art_bytes(p.back, p.width, p.height) for p in contacts if p.back is not None]
    assert len(set(backs)) == len(contacts)          # each back is its own
    assert {p.title.split()[-1] for p in contacts} == {str(n) for n in range(1, 8)}
    assert {p.id for p in contacts} == {f"contact.israel.{n}" for n in range(1, 8)}


def test_marker_sheet_text(israel_markers: Rendered) -> None:
    lines = pdf_lines(israel_markers.component.pdf)
    text = " ".join(lines)
    for word in ("RADAR", "CIVILIAN", "vessel", "aircraft", "MISSILE", "FIRE", "BLACKOUT",
                 "LIGHT", "HEAVY", "CRITICAL", "WRECKED", "KO 9+", "KO 6+", "KO 3+",
                 "lights 10 cm", "+1 to damage", "1–5 cm", "25–30 cm", "drifts"):
        assert word in text, word
    assert text.count("DUMMY") == 4
    assert text.count("Sa'ar 3") == 2 and text.count("A-4 Skyhawk") == 1
    speeds = [p for p in israel_markers.pieces if p.group == "speed"]
    assert [p.title for p in speeds] == [f"Speed {n}" for n in range(7)]
    assert all(p.quantity == 2 for p in speeds)      # two Sa'ar 3, speed 6
    missiles = [p for p in israel_markers.pieces if p.group == "missile"]
    assert len(missiles) == 2 * 5                    # Gabriel: five rounds each
    assert not israel_markers.warnings


def test_generic_markers(ctx: Context) -> None:
    from generator.rulesets.modern_naval.markers import markers

    generic = Context(Request("markers"), "letter", KitOptions(seed=1), data=_derived())
    r = markers(generic, None)
    assert any(p.group == "contact" for p in r.pieces)
    assert r.component.pages >= 1


# -- aids in cm ---------------------------------------------------------------------------------


def test_movement_bands_are_five_cm(tables: Tables) -> None:
    from generator.core.units import MM
    from generator.rulesets.modern_naval.aids import movement_strip

    strip = movement_strip(tables)
    assert len(strip.bands) == 6
    for k, band in enumerate(strip.bands, 1):
        assert abs(band.start / MM - 50 * (k - 1)) < 0.01
        assert abs((band.end - band.start) / MM - 50.0) < 0.01
    assert [b.label for b in strip.bands][:2] == ["1 marker: 1–5 cm", "2 markers: 5–10 cm"]
    assert abs(strip.length / MM - 300) < 0.01


def test_turning_and_range_gauges(tables: Tables) -> None:
    from generator.core.units import MM
    from generator.rulesets.modern_naval.aids import search_strip, turning_strip

    turning = {round(m.at / MM, 2): m.label for m in turning_strip(tables).marks if m.label}
    assert turning == {0.0: "0", 20.0: "MVR 2", 40.0: "MVR 4", 60.0: "MVR 6",
                       80.0: "MVR 8", 100.0: "MVR 10"}
    radar = search_strip(tables.radar_detection, "radar")
    assert abs(radar.length / MM - 1600) < 0.01
    majors = sorted(round(m.at / MM, 2) for m in radar.marks if m.size == "major")
    assert majors == [0.0, 600.0, 800.0, 1000.0, 1200.0, 1400.0, 1600.0]
    fog = search_strip(tables.visual_identification, "fog", fog=True)
    assert sorted(round(m.at / MM, 2) for m in fog.marks if m.size == "major") == [
        0.0, 150.0, 200.0, 250.0, 300.0, 350.0, 400.0]


def test_aids_pdf(ctx: Context) -> None:
    from generator.rulesets.modern_naval.aids import aids

    text = " ".join(pdf_lines(aids(ctx, None).pdf))
    for label in ("160 cm: VL/hi +air", "60 cm: VS", "MVR 10", "80 cm: VL/hi +air",
                  "40 cm: VL/hi +air", "6 markers: 25–30 cm", "lit by a fire", "100 mm"):
        assert label in text, label


# -- resolution tables, matchups, dice ---------------------------------------------------------


@pytest.fixture(scope="module")
def resolution_lines(ctx: Context) -> list[str]:
    """The resolution tables' lines."""
    from generator.rulesets.modern_naval.resolution import resolution_tables

    return pdf_lines(resolution_tables(ctx, None).pdf)


def pct(p: Fraction) -> str:
    """As printed."""
    from generator.rules.dice import percent

    return percent(p)


def test_resolution_hit_rows(resolution_lines: list[str]) -> None:
    for m in (-12, -5, 0, 4, 10):
        label = f"{m:+d}" if m else "0"
        assert f"{label} {pct(d20_at_least(m))}" in resolution_lines


def test_resolution_damage_rows(resolution_lines: list[str]) -> None:
    for m in (-3, 0, 2, 7):
        counts = {k: 0 for k in ("intact", "light", "heavy", "critical", "wrecked")}
        knocked = 0
        for basic, ko in itertools.product(D10, D10):
            level = level_of(basic + m)
            counts[level] += 1
            knocked += level in KO and ko >= KO[level]
        label = f"{m:+d}" if m else "0"
        cells = [pct(frac(counts[k], 100)) for k in counts] + [pct(frac(knocked, 100))]
        assert " ".join([label, *cells]) in resolution_lines


def test_resolution_control_and_detection(resolution_lines: list[str]) -> None:
    for crew in (-2, 0, 2):
        counts = {"repaired": 0, "none": 0, "worse": 0}
        for (f,) in itertools.product(D10):
            s = f + crew
            counts["repaired" if s >= 8 else "worse" if s <= 3 else "none"] += 1
        label = f"{crew:+d}" if crew else "0"
        assert " ".join([label, *[pct(frac(n, 10)) for n in counts.values()]]) in \
            resolution_lines
    # Radar, FCS 3rd, sea state 6, fast: crew -2..+2 with +1 -2 -1.
    row = ["3rd", "6", "5-6"] + [pct(frac(sum(1 for (f,) in itertools.product(D10)
                                              if f + c + 1 - 2 - 1 >= 6), 10))
                                 for c in range(-2, 3)]
    assert " ".join(row) in resolution_lines


def test_matchups_hide_enemy_classes(ctx: Context, saar: UnitView, osa: UnitView) -> None:
    from generator.rulesets.modern_naval.matchups import matchups, render_matchups

    lines = pdf_lines(matchups(ctx, "israel").pdf)
    text = " ".join(lines)
    assert "Osa" not in text
    # Gabriel against an Osa at 5 speed markers: SARH 1st, no ECM 0, small -2, 5 markers -2,
    # crew +2; at 0 markers +8.
    row = next(line for line in lines if line.startswith("Gabriel 5-100 ship, small, no ECM"))
    cells = row.split(" dmg +1 ")[1].split()
    assert cells[:7] == [pct(d20_at_least(2 - 2 + s)) for s in (8, 5, 5, 2, 0, -2, -5)]
    # Damage: Gabriel +2, Osa +1: intact target, modifier +3.
    knocked = sum(1 for b, k in itertools.product(D10, D10)
                  if level_of(b + 3) in KO and k >= KO[level_of(b + 3)])
    wrecked = sum(1 for (b,) in itertools.product(D10) if b + 3 >= 10)
    assert cells[7:] == [pct(frac(knocked, 100)), pct(frac(wrecked, 10))]
    known = render_matchups(bundled_tables(), "Israel", [saar], [osa], True, Conditions(),
                            "a4", "m", "test")
    assert "Osa I: ship" in " ".join(pdf_lines(known.pdf))


def test_dice_sheet_is_seeded(ctx: Context) -> None:
    import dataclasses

    from generator.rules.dice import derive_seed, pairs
    from generator.rulesets.modern_naval.resolution import dice_sheet

    seeded = dataclasses.replace(ctx, options=KitOptions(seed=41))
    first = pdf_lines(dice_sheet(seeded, "israel").pdf)
    again = pdf_lines(dice_sheet(seeded, "israel").pdf)
    own = derive_seed(41, "israel")
    assert first == again and f"Seed {own}, drawn from build seed 41 for Israel" in " ".join(first)
    # The first printed pairs: roll number, d10, d20 (the shared sheet's pairs).
    assert [f"{n} {w} {r}" for n, (w, r) in enumerate(pairs(own, 2, (10, 20)), start=1)] \
        == [line for line in first if line[:2] in ("1 ", "2 ")][:2]
    other = pdf_lines(dice_sheet(seeded, "syria").pdf)
    assert other != first


def test_components_registered() -> None:
    from generator.rulesets.modern_naval import rules_kit  # noqa: F401  (registers)
    from generator.rulesets.modern_naval.registry import COMPONENTS

    assert {"reference-card", "markers", "aids", "resolution-tables", "matchups",
            "dice"} <= set(COMPONENTS.names())


def test_modern_odds_command() -> None:
    from click.testing import CliRunner

    from generator.rulesets.modern_naval.commands import modern_odds

    result = CliRunner().invoke(modern_odds, [
        "--kind", "missile", "--seeker", "SARH", "--generation", "1", "--crew", "2",
        "--size", "small", "--target-speed", "5", "--weapon-damage", "2",
        "--target-damage", "1"])
    assert result.exit_code == 0
    assert f"Chance to hit: 40.0% ({d20_at_least(-2)})" in result.output
    assert "  total" in result.output and "-2" in result.output
    bad = CliRunner().invoke(modern_odds, ["--kind", "missile", "--seeker", "IR",
                                           "--generation", "2"])
    assert bad.exit_code == 2
    assert "--generation: found 2, expected for IR: none" in bad.output


def test_tables_override_unknown_factor(tmp_path: Path) -> None:
    from generator.core.errors import DataError

    user = tmp_path / "t.yaml"
    user.write_text(
        "initiative:\n"
        "  title: Initiative\n"
        "  die: d10\n"
        "  header: [a, b]\n"
        "  modifiers:\n"
        "    - {label: x, value: 1, factor: comander}\n")
    with pytest.raises(DataError) as err:
        load_tables(user)
    messages = [str(p) for p in err.value.problems]
    assert len(messages) == 1
    assert messages[0].startswith(f"{user}:6:36: initiative.modifiers.0.factor: found "
                                  "'comander', expected one of crew")
    assert messages[0].endswith("did you mean 'commander'?")


def test_matchups_by_target_state(ctx: Context) -> None:
    from generator.rulesets.modern_naval.matchups import matchups

    lines = pdf_lines(matchups(ctx, "israel").pdf)
    row = next(line for line in lines if line.startswith("Gabriel ship, small, no ECM"))
    cells = []
    for bonus in (0, 1, 2, 3):   # intact, light, heavy, critical
        m = 2 + 1 + bonus
        knocked = sum(1 for b, k in itertools.product(D10, D10)
                      if level_of(b + m) in KO and k >= KO[level_of(b + m)])
        wrecked = sum(1 for (b,) in itertools.product(D10) if b + m >= 10)
        cells.append(f"{pct(frac(knocked, 100))} · {pct(frac(wrecked, 10))}")
    assert row.endswith(" ".join(cells))
    syria = pdf_lines(matchups(ctx, "syria").pdf)
    # AK-230 (damage -1) at the A-4 (damage 0): lost on heavy or worse, +1 per marker.
    lost = [pct(frac(sum(1 for (b,) in itertools.product(D10) if b - 1 + k >= 4), 10))
            for k in range(4)]
    assert "AK-230 aircraft, small, ECM 1st, FCS 1st, dmg +0 " + " ".join(
        f"lost {x}" for x in lost) in syria


def test_every_component_on_letter_with_tables(ctx: Context, tmp_path: Path) -> None:
    import dataclasses

    from generator.rulesets.modern_naval import rules_kit  # noqa: F401  (registers)
    from generator.rulesets.modern_naval.registry import COMPONENTS

    user = tmp_path / "t.yaml"
    user.write_text("to_hit: {die: d20, score: 12}\n")
    letter = dataclasses.replace(ctx, paper="letter", options=KitOptions(tables=user, seed=7))
    for name, arg in (("reference-card", None), ("markers", "syria"), ("aids", None),
                      ("resolution-tables", None), ("matchups", "syria"), ("dice", "syria")):
        out = COMPONENTS.get(name)(letter, arg)
        component = out.component if isinstance(out, Rendered) else out
        assert component.pages >= 1, name
        if name == "matchups":
            # The user's score is theirs: printed, and not labelled DEFAULT.
            text = " ".join(pdf_lines(component.pdf))
            assert "hit score 12;" in text and "hit score 12 (DEFAULT)" not in text


def test_resolution_seeker_grid(resolution_lines: list[str]) -> None:
    # ARH 1st: -6 -8 -10 against ECM 1st to 3rd; IR: n/a n/a -2; no ECM: 0.
    assert " ".join(["ARH 1", pct(d20_at_least(0)), pct(d20_at_least(-6)),
                     pct(d20_at_least(-8)), pct(d20_at_least(-10))]) in resolution_lines
    assert " ".join(["IR", *[pct(d20_at_least(m)) for m in (0, 0, 0, -2)]]) in \
        resolution_lines
