"""Naval Warfare 1942-45, issue 30: rules the kit delivered wrongly or left out.

Each test cites the rule text (naval-warfare-1942-45.txt) it holds the kit to: the
carrier groups' Air Point ("Units"), the two tonnage lines of the loss table ("Calculating
Losses", Example One), minor invasions ("Minor Invasions", "Damage", the winner after
the damage table), Annex A's USSR note, the Fleet Train ("Bases"), Japanese land-based
air's range ("Operational Range"), the unit table in the catalog, and the route chart's
page footer.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import click
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner

from generator.kit.pipeline import BuildResult
from generator.rules.dice import percent
from generator.rulesets.naval_warfare import outcome, ruletables
from generator.rulesets.naval_warfare.combatcli import land_units
from generator.rulesets.naval_warfare.commands import commands
from generator.rulesets.naval_warfare.merchant import parse_force
from generator.rulesets.naval_warfare.units import load_units
from tests.conftest import Kits

DAMAGE = ruletables.bundled().combat.damage_table


@pytest.fixture(scope="module")
def cli() -> click.Group:
    return click.Group(commands={c.name: c for c in commands() if c.name})


@pytest.fixture(scope="module")
def kit(kits: Kits) -> BuildResult:
    return kits.build("balance-1942")


def run(cli: click.Group, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.stdout, result.stderr


def pages(path: Path) -> list[str]:
    doc = pdfium.PdfDocument(path)
    try:
        return [doc[i].get_textpage().get_text_range().replace("\r\n", "\n")
                for i in range(len(doc))]
    finally:
        doc.close()


# -- item 2: a carrier group carries one Air Point ------------------------------------


def test_three_fleet_carriers_fight_with_their_three_air_points(cli: click.Group) -> None:
    """"Fleet Carrier Group ... carries a single Air Point" (CV 10 each, Unit Characteristics)."""
    code, out, _ = run(cli, "naval-combat", "--force", "3 fleet-carrier", "--enemy",
                       "3 heavy-ship")
    assert code == 0
    lines = out.splitlines()
    # 3 x 1 + 3 x 10 = 33 against 15: outnumbering 2:1 (+1) and air supremacy 3:0 (+2).
    assert lines[0] == ("You: 3 fleet-carrier, 3 air (carried); fleet CV 33, 3 Air Points; "
                        "modifiers outnumbering-2 +1, air-supremacy +2; net +3; dice on rows "
                        "20+13")
    assert lines[1] == ("note (you): 3 fleet-carrier carry 3 Air Points (a Fleet Carrier Group "
                        "carries one); 3 not listed, added as 3 air (10-4-6 each; write 'empty "
                        "fleet-carrier' for one that has lost it)")


def test_listed_air_points_fill_the_carriers_first() -> None:
    units = load_units()

    def read(text: str) -> tuple[int, int]:
        force, problems = parse_force(text, units, "", "--force")
        assert problems == []
        return force.cv("fleet"), force.air(["air", "escort-carrier-air", "strategic-bomber"])

    assert read("1 fleet-carrier, 1 air") == (11, 1)       # its own Air Point, not two
    assert read("1 fleet-carrier, 2 air") == (21, 2)       # one carried, one from land
    assert read("2 fleet-carrier, 1 air") == (22, 2)       # the second carrier's is added
    # "Damaged Carrier units cannot carry their air unit any longer".
    assert read("1 damaged fleet-carrier") == (0, 0)
    assert read("1 empty fleet-carrier") == (1, 0)
    # An Escort Carrier Group's Air Point is the escort-carrier one: 3-4-5.
    assert read("1 escort-carrier") == (4, 1)


def test_an_escort_carrier_escorts_with_its_air_point(cli: click.Group) -> None:
    code, out, _ = run(cli, "merchant", "--raiders", "1 heavy-ship", "--escorts",
                       "1 escort-carrier")
    assert code == 0
    assert out.splitlines()[1] == ("Escorts: 1 escort-carrier, 1 escort-carrier-air (carried); "
                                   "commerce defence 1 escort-carrier 0 + 1 escort-carrier-air "
                                   "(carried) 5 = 5")


def test_empty_is_refused_on_a_unit_that_carries_nothing(cli: click.Group) -> None:
    code, out, err = run(cli, "naval-combat", "--force", "1 empty heavy-ship", "--enemy", "5")
    assert (code, out) == (2, "")
    assert err.strip() == ("error: --force: found 'empty' in '1 empty heavy-ship', expected it "
                           "only before a carrier group (one that has lost its Air Point)")


def test_the_card_and_task_force_card_say_what_a_carrier_carries(kit: BuildResult) -> None:
    text = "\n".join(pages(kit.folder / "japan.pdf"))
    assert "Fleet Carrier Group 1 0 0 0-0-0 4 1 Air Point\n" in text
    assert "Escort Carrier Group 1 0 0 0-0-0 4 1 Air Point\n" in text
    assert "Heavy Ship Group 5 4 2 2-2-1 4\n" in text
    # The briefing's balance: Japan's 5 Fleet Carrier Groups, 1 spare.
    assert "Fleet Carrier Group (carries 1 Air Point) 5 1 1 0 0 4\n" in text
    # The Task Force card: an Air Points box beside the total fleet CV, and the rule.
    assert "Total fleet CV Air Points NOF (tick) LSP (tick each)\n" in text
    assert ("Each undamaged carrier group carries one Air Point: count it in the Air Points "
            "and its CV in the total.") in text


# -- item 3: the raiders' nation decides the tonnage line ------------------------------


def test_submarine_raiders_need_their_nation(cli: click.Group) -> None:
    code, out, err = run(cli, "merchant", "--raiders", "4 submarine", "--escorts", "2 escort")
    assert (code, out) == (2, "")
    assert err.strip() == (
        "error: --raider-nation: found nothing, expected the submarines' nation (German "
        "submarines, DE, have a tonnage line of their own; Japan, JP, has its own submarines): "
        "US, UK, AU, CA, NZ, IN, JP, DE, IT, FR, FF, VF, NL, SU, PL, GR, NO")


@pytest.mark.parametrize(("nation", "tonnage"), [("DE", 8), ("US", 4)])
def test_example_one_loses_8_tonnage_points_to_german_submarines(cli: click.Group, nation: str,
                                                                 tonnage: int) -> None:
    """Example One: Blue, "4 x 2 per sub = 8"; any other raider's Blue is 1 per unit."""
    code, out, _ = run(cli, "merchant", "--raiders", "4 submarine", "--raider-nation", nation,
                       "--escorts", "2 escort", "--raider-roll", "1", "--escort-roll", "2")
    assert code == 0
    assert f"Tonnage lost: {tonnage} Tonnage Points" in out


def test_surface_raiders_need_no_nation(cli: click.Group) -> None:
    code, _, _ = run(cli, "merchant", "--raiders", "1 heavy-ship", "--escorts", "2 escort")
    assert code == 0


# -- item 4: minor invasions ----------------------------------------------------------


def pct(p: Fraction) -> str:
    """A chance as the command prints it: one decimal, a dash when impossible."""
    return percent(p, 1) if p else "–"


def brute_cost(steps_of: list[list[int]], k: int) -> int:
    """The least CV lost to k steps, trying every way of sharing them out."""
    k = min(k, sum(len(s) for s in steps_of))
    best = None
    for taken in itertools.product(*[range(len(s) + 1) for s in steps_of]):
        if sum(taken) == k:
            cost = sum(sum(s[:t]) for s, t in zip(steps_of, taken, strict=True))
            best = cost if best is None else min(best, cost)
    assert best is not None
    return best


def brute_battle(rows: tuple[list[int], list[int]], nets: tuple[int, int],
                 costs: tuple[list[list[int]], list[list[int]]],
                 troops: list[int], cvs: tuple[int, int]) -> tuple[Fraction, ...]:
    """You win, enemy wins, undecided, landing succeeds: every pair of d6 rolls tried.

    You invade with ``troops`` (CVs, cheapest lost first once the rest is gone).
    """
    out = [Fraction(0)] * 4
    dice = [list(itertools.product(range(1, 7), repeat=len(r))) for r in rows]
    p = Fraction(1, 6 ** (len(rows[0]) + len(rows[1])))
    others = sum(len(s) for s in costs[0])
    for mine in dice[0]:
        for theirs in dice[1]:
            on_enemy = sum(DAMAGE.steps(r, d + nets[0]) for r, d in zip(rows[0], mine, strict=True))
            on_me = sum(DAMAGE.steps(r, d + nets[1]) for r, d in zip(rows[1], theirs, strict=True))
            land = sorted(troops)[:max(0, min(on_me, others + len(troops)) - others)]
            lost_me = brute_cost(costs[0], on_me) + sum(land)
            lost_enemy = brute_cost(costs[1], on_enemy)
            if lost_me != lost_enemy:
                out[0 if lost_me < lost_enemy else 1] += p
            elif cvs[0] - lost_me != cvs[1] - lost_enemy:
                out[0 if cvs[0] - lost_me > cvs[1] - lost_enemy else 1] += p
            else:
                out[2] += p
            if len(land) < len(troops):
                out[3] += p
    return tuple(out)


def test_minor_invasion_counts_troops_and_decides_on_cv_lost(cli: click.Group) -> None:
    """Manpower 8 and tank 6 join the invasion TF's CV ("Minor Invasions"); garrison and
    Air Point go at the first step; the side losing more CV loses; the landing fails
    only when every landing troop is lost."""
    code, out, _ = run(cli, "naval-combat", "--force",
                       "1 heavy-ship, 1 manpower, 1 tank, 1 landing-craft", "--enemy",
                       "1 garrison, 1 air")
    assert code == 0
    lines = out.splitlines()
    # 5 + 8 + 6 + 0 = 19 against garrison 8 + Air Point 10 = 18; 0 Air Points to 1.
    assert lines[0] == ("You: 1 heavy-ship, 1 manpower, 1 tank, 1 landing-craft; fleet CV 19, "
                        "0 Air Points; modifiers air-inferiority -2 (DEFAULT); net -2; dice on "
                        "rows 19")
    assert lines[1] == ("note (you): minor invasion: landing troops 1 manpower × 8, 1 tank × 6 "
                        "(manpower 8, tank 6 CV each), added to the invasion Task Force's CV")
    assert lines[2] == ("Enemy: 1 garrison, 1 air; fleet CV 18, 1 Air Point; modifiers "
                        "air-supremacy +2; net +2; dice on rows 18")
    you, enemy, undecided, landed = brute_battle(
        ([19], [18]), (-2, 2), ([[3, 2], [0, 0]], [[8], [10]]), [8, 6], (19, 18))
    assert lines[-2] == (
        "Who wins (the side that loses more CV withdraws; with equal losses, the side left "
        "with more CV), each side losing the least CV its steps allow (DEFAULT reading: the "
        "owner picks the units; an invader keeps its landing troops to the last): you win "
        f"{pct(you)}; the enemy wins {pct(enemy)}; undecided {pct(undecided)}")
    assert lines[-1] == (f"The landing succeeds (your landing troops are not all lost): "
                         f"{pct(landed)}; it fails: {pct(1 - landed)}")


def test_verdict_is_exact() -> None:
    rules = ruletables.bundled()
    units = {**load_units(), **land_units(8, 6, 8)}
    subs = frozenset({"submarine", "japanese-submarine"})
    mine, _ = parse_force("2 heavy-ship, 1 submarine, 2 manpower, 1 landing-craft", units, "",
                          "--force")
    theirs, _ = parse_force("1 garrison, 1 air, 1 light-cruiser", units, "", "--enemy")
    # An invader's submarines add nothing: 10 + 0 + 16 + 0 = 26 against 8 + 10 + 3 = 21.
    assert outcome.force_cv(mine, True, subs) == 26
    costs = (outcome.losses(mine, True, subs), outcome.losses(theirs, False, subs))
    # Garrison and Air Point have one step each; the cruiser 2 then 1.
    assert costs[1].cost == [0, 2, 3, 11, 21]
    table = rules.combat.damage_table
    from generator.rulesets.naval_warfare import combat

    by = (combat.steps_distribution(table, 26, 0), combat.steps_distribution(table, 21, 0))
    end = outcome.verdict(costs[0], costs[1], by[0], by[1], 0)
    expected = brute_battle(([20, 6], [20, 1]), (0, 0),
                            ([[3, 2], [3, 2], [0, 0], [0, 0]], [[8], [10], [2, 1]]),
                            [8, 8], (26, 21))
    assert (end.first_wins, end.second_wins, end.undecided, end.landing) == expected


def test_one_invasion_result(cli: click.Group) -> None:
    code, out, _ = run(cli, "naval-combat", "--force", "1 heavy-ship, 2 manpower", "--enemy",
                       "1 garrison, 1 air", "--rolls", "3,2", "--enemy-rolls", "5")
    assert code == 0
    assert out.splitlines()[2:] == [
        "note (you): a minor invasion without a Landing Craft Group: no-landing-craft applies",
        "Enemy: 1 garrison, 1 air; fleet CV 18, 1 Air Point; modifiers air-supremacy +2; net "
        "+2; dice on rows 18",
        "You inflict 2 steps (row 20: 3 -4 = -1 -> 2; row 1: 2 -4 = -2 -> 0)",
        "The enemy inflicts 4 steps (row 18: 5 +2 = 7 -> 4)",
        "CV lost, each side taking its cheapest steps (DEFAULT reading: the owner picks the "
        "units; an invader keeps its landing troops to the last): you 21 of 21; the enemy 18 "
        "of 18",
        "The enemy wins: you withdraw.",
        "The landing fails: every landing troop is lost.",
    ]


def test_invasion_inputs_are_checked(cli: click.Group) -> None:
    code, out, err = run(cli, "naval-combat", "--force", "5 manpower, 2 landing-craft",
                         "--enemy", "1 garrison, 1 tank")
    assert (code, out) == (2, "")
    assert err.splitlines() == [
        "error: --enemy: found land troops (manpower, tank) on both sides, expected them with "
        "the invader only"]
    code, _, err = run(cli, "naval-combat", "--force", "5 manpower, 2 landing-craft",
                       "--enemy", "1 garrison")
    assert err.strip() == ("error: --force: found 5 manpower and tank points and 2 "
                           "landing-craft, expected at most 4 (one Landing Craft Group lands "
                           "up to 2)")


# -- item 5: Annex A's USSR note, the Fleet Train, Japan's air range -------------------


def test_ussr_note_fleet_train_and_japanese_air_range(kit: BuildResult) -> None:
    ussr = "\n".join(pages(kit.folder / "ussr.pdf"))
    assert "Only the Arctic and Pacific fleets are played (Annex A)." in ussr
    for team in ("usa", "commonwealth", "germany", "italy", "japan", "ussr"):
        text = "\n".join(pages(kit.folder / f"{team}.pdf"))
        assert "\nFleet Train\nFT\nmobile fleet base\n" in text, team
    japan = "\n".join(pages(kit.folder / "japan.pdf"))
    # "Japanese land based Air has a range of 1"; carrier-borne air fights in its sea area.
    assert "Air Point launched from Land or Fleet Carrier 0 8 10 4 6 0 (land 1)\n" in japan


# -- item 6: the catalog shows the unit table's values --------------------------------


def test_catalog_lists_every_unit_type_with_its_values() -> None:
    from generator.data.library import validated_library
    from generator.rulesets import REGISTRY

    component = REGISTRY["naval-warfare"].catalog(validated_library([]), "a4")  # type: ignore[arg-type]
    text = "\n".join(pages(component.pdf))  # type: ignore[arg-type]
    assert "Heavy Ship Group HVY 5 4 2 2-2-1 2 4 —\n" in text
    assert "Fleet Carrier Group CV 1 0 0 0-0-0 2 4 1 Air Point (10-4-6)\n" in text
    assert "Escort Carrier Group CVE 1 0 0 0-0-0 2 4 1 Air Point (3-4-5)\n" in text
    assert "Strategic Bomber Point (from Land) STRAT 10 6 8 — 1 1, later 2 —\n" in text
    assert "Manpower point 8 1 lands from a Landing Craft Group\n" in text
    assert "Tank point 6 1 lands from a Landing Craft Group\n" in text
    for unit in load_units().values():
        assert f"{unit.name} {unit.code} {unit.fleet} {unit.attack} {unit.defence} " in text


# -- item 7: the route chart stays above the page footer ------------------------------


def test_route_chart_never_runs_into_the_footer(kit: BuildResult) -> None:
    """Portsmouth's nine routes are more than a page: the block breaks, heading repeated."""
    doc = pdfium.PdfDocument(kit.folder / "commonwealth.pdf")
    checked = 0
    try:
        for i in range(len(doc)):
            page = doc[i]
            textpage = page.get_textpage()
            text = textpage.get_text_range()
            if "FLEET BASE OF ORIGIN" not in text:
                continue
            start = text.index("quarterdeck · Naval Warfare")
            footer_top = max(textpage.get_charbox(start + n)[3] for n in range(20))
            lowest = min(obj.get_bounds()[1] for obj in page.get_objects()
                         if obj.type == pdfium.raw.FPDF_PAGEOBJ_PATH)
            assert lowest > footer_top + 1, (i, lowest, footer_top)
            checked += 1
        assert checked >= 3
    finally:
        doc.close()
    text = "\n".join(pages(kit.folder / "commonwealth.pdf"))
    assert "FLEET BASE OF ORIGIN: Portsmouth (UK & Commonwealth) (continued)" in text


def test_a_campaign_may_prefill_route_tonnage_and_over_allocation_shows() -> None:
    """A game control who writes `tonnage:` gets the totals computed, overdraw shown."""
    from generator.data.library import validated_library
    from generator.kit.pipeline import prepared
    from generator.kit.seam import KitOptions, Request
    from generator.rulesets import REGISTRY
    from generator.rulesets.naval_warfare.campaign import annex_b, chart_rows
    from generator.rulesets.naval_warfare.components.routes import allocation_grid

    ctx, _ = prepared(REGISTRY["naval-warfare"], validated_library([]),
                      Request("kit", scenario="balance-1942"), "a4", KitOptions())
    d = ctx.data
    assert d.campaign is not None
    # Annex B's own figures, route for route (the campaign lists its routes in its order).
    filled = [r.model_copy(update={"tonnage": ex.tonnage})
              for r, ex in zip(d.campaign.routes, annex_b().rows, strict=True)]
    campaign = d.campaign.model_copy(update={"routes": filled})
    rows = chart_rows(campaign, d.supply)
    assert [r.effective for r in rows] == [ex.lift for ex in annex_b().rows]
    grid = allocation_grid([d.nations["jp"], d.nations["ff"]], rows, 500)
    # Japan: 73 of its 56 Tonnage Points on routes, 108 effective; Free French: no route.
    assert grid.rows == [["Japan", "56", "73", "108", "-17 (over-allocated)"],
                         ["Free French", "2", "____", "____", "____"]]
