"""The NAVAL ACTION rules calculator: exact odds from the Action Card tables.

Everything here reads the same ``CardTables`` the card prints, through the shared dice
engine; results are exact fractions. A ``Calculator`` memoises by its arguments, so a
scenario's hundreds of matchups cost only the few distinct situations they contain.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Literal, TypeVar

from generator.rules import dice
from generator.rules.memo import MemoCalculator
from generator.rulesets.naval_action.views import Band

if TYPE_CHECKING:  # imported where a die is made: the kit's other pages do not wait
    import icepool

    from generator.rulesets.naval_action.cardmodels import CardTables, Modifier
    from generator.rulesets.naval_action.cardtables import Tables

Mode = Literal["gun", "torpedo", "bomb"]
K = TypeVar("K")
V = TypeVar("V")

NO_EFFECT = "–"
DUD = "dud"
LEVELS = {0: "none", 1: "D", 2: "HD", 3: "sunk"}


@dataclass(frozen=True)
class Face:
    """One coloured-die face of a penetration roll, resolved for the situation."""

    face: int
    label: str  # 'dud', '–', 'D', 'HD' or 'S'
    steps: int


@dataclass(frozen=True)
class Damage:
    """Damage a ship takes from one firing (or one spread), from undamaged, exactly."""

    steps: dict[int, Fraction]  # damage steps (0 none, 1 D, 2 HD, 3 sunk) -> probability
    at_least_one: Fraction      # chance of at least one damaging hit
    expected: Fraction          # expected damage steps

    def p(self, steps: int) -> Fraction:
        """Probability of ending at exactly ``steps``."""
        return self.steps.get(steps, Fraction(0))


class Calculator(MemoCalculator["Tables"]):
    """Odds for one set of tables (bundled, or a user's ``--tables``).

    A calculator pickles as its plain memoised results (``PLAIN``), the tables' origin
    and the user's tables file (``generator.rules.memo``): the odds index keeps one so
    that ``quarterdeck odds`` answers from the results without loading the tables, which
    are read again (from ``source``) only if a question needs a result the index lacks.
    """

    PLAIN = frozenset({"accuracy", "duds", "situational", "hit_chances", "faces", "gunfire",
                       "torpedo"})

    def __init__(self, tables: Tables, source: Path | None = None) -> None:
        """``source``: the user's tables file ``tables`` were loaded from (None: bundled)."""
        super().__init__(tables, str(tables.origin), source)

    def load_tables(self, source: Path | None) -> Tables:
        """The Action Card and derivation tables, from ``source`` over the bundled ones."""
        from generator.rulesets.naval_action.cardtables import load_tables

        return load_tables(source)

    @property
    def card(self) -> CardTables:
        """The Action Card tables."""
        return self.tables.card

    # -- accuracy -------------------------------------------------------------------

    def auto_modifiers(self, band: Band, nation: str, ship_type: str,
                       sea_state: str) -> list[tuple[Modifier, int]]:
        """Modifiers the situation fixes before play (range, nation, sea), with values."""
        applied = []
        for mod in self.card.accuracy.modifiers:
            auto = mod.auto
            if auto is None:  # depends on the moment: the player applies it
                continue
            if auto.range is not None and auto.range != band:
                continue
            if auto.firer_nations is not None and nation not in auto.firer_nations:
                continue
            if auto.sea_state is not None and auto.sea_state != sea_state:
                continue
            if auto.firer_types is not None and ship_type not in auto.firer_types:
                continue
            applied.append((mod, mod.effect(band)))
        return applied

    def accuracy(self, band: Band, nation: str = "", ship_type: str = "",
                 sea_state: str = "calm") -> int:
        """Accuracy result before situational modifiers."""
        return self._cached(("accuracy", band, nation, ship_type, sea_state),
                            lambda: self.card.accuracy.start + sum(
                                v for _, v in self.auto_modifiers(band, nation, ship_type,
                                                                  sea_state)))

    def situational(self) -> list[Modifier]:
        """Modifiers the player still applies at the table."""
        return [m for m in self.card.accuracy.modifiers if m.auto is None]

    def situational_numbers(self) -> tuple[int, ...]:
        """The card numbers of the modifiers the player still applies."""
        return self._cached(("situational",),
                            lambda: tuple(m.number for m in self.situational()))

    def hits(self, accuracy: int) -> icepool.Die[int]:
        """Number of hits from one firing at a final accuracy result."""
        acc = self.card.accuracy
        accuracy = max(accuracy, 0)  # every result below 1 reads the same way

        def make() -> icepool.Die[int]:
            import icepool

            white = dice.d(6)
            if accuracy < 1:
                # Below 1: only a run of the needed faces (1, then 1) hits, once.
                needs = acc.below_one_needs
                chance = Fraction(1, 6 ** len(needs))
                return icepool.Die({1: chance.numerator,
                                    0: chance.denominator - chance.numerator})

            def face(r: int) -> int:
                if r == acc.automatic_miss or r > accuracy:
                    return 0
                return acc.multi_hits.get(r, 1)

            return white.map(face)

        return self._cached(("hits", accuracy), make)

    def hit_chances(self, accuracy: int) -> dict[int, Fraction]:
        """The chance of each number of hits from one firing at a final accuracy result."""
        return self._cached(("hit_chances", accuracy),
                            lambda: dice.distribution(self.hits(accuracy)))

    def may_switch(self, accuracy: int) -> Fraction:
        """Chance the white die allows switching fire to a second target."""
        acc = self.card.accuracy
        if accuracy < 1:
            return Fraction(0)
        faces = [r for r in acc.switch_fire_on if r <= accuracy and r != acc.automatic_miss]
        return Fraction(len(faces), 6)

    # -- penetration ----------------------------------------------------------------

    def faces(self, differential: int, mode: Mode = "gun", band: Band = "medium",
              old_armor: bool = False, dud_faces: frozenset[int] = frozenset({1})
              ) -> tuple[Face, ...]:
        """The six coloured-die faces resolved for a situation.

        Args:
            differential: Caliber (torpedo, bomb) factor minus the target's armor factor.
            mode: ``gun``, ``torpedo`` or ``bomb``.
            band: Range band (guns only).
            old_armor: The target's armor carries the "O".
            dud_faces: Faces that are duds (torpedoes may add a 2).

        """
        def make() -> tuple[Face, ...]:
            pen = self.card.penetration
            shift = 0
            if mode == "gun" and band == "close":
                shift += pen.shift_up.close_range
            if mode == "gun" and band == "long" and old_armor:
                shift += pen.shift_up.long_range_vs_old
            if mode == "bomb" and old_armor:
                shift += pen.shift_up.bomb_vs_old
            bracket_active = mode != "gun" or band == "close"
            out = []
            for face in range(1, 7):
                if face in dud_faces:
                    cell = (pen.gunfire_dud[pen.column(differential)] if mode != "torpedo"
                            else "-")
                    steps = self._steps(cell, bracket_active)
                    label = DUD if steps == 0 else self._label(cell, bracket_active)
                else:
                    cell = pen.cell(face, differential, shift)
                    steps = self._steps(cell, bracket_active)
                    label = self._label(cell, bracket_active)
                out.append(Face(face, label, steps))
            return tuple(out)

        return self._cached(("faces", differential, mode, band, old_armor, dud_faces), make)

    def _steps(self, cell: str, bracket_active: bool) -> int:
        if cell == "-" or (cell == "(D)" and not bracket_active):
            return 0
        return self.card.penetration.steps[cell]  # type: ignore[index]

    def _label(self, cell: str, bracket_active: bool) -> str:
        if cell == "-" or (cell == "(D)" and not bracket_active):
            return NO_EFFECT
        return "D" if cell == "(D)" else cell

    def damage(self, hits: icepool.Die[int], faces: tuple[Face, ...],
               differential: int) -> Damage:
        """Damage from a number-of-hits die, each hit rolling ``faces``, from undamaged."""
        import icepool

        pen = self.card.penetration
        cap = min(pen.limit(differential), pen.sunk_at)
        each = icepool.Die([f.steps for f in faces])
        total = dice.repeat_sum(hits, each, cap=cap)
        dist: dict[int, Fraction] = dice.distribution(total)
        return Damage(dist, sum((p for s, p in dist.items() if s >= 1), Fraction(0)),
                      dice.mean(total))

    # -- gunfire, torpedoes -----------------------------------------------------------

    def gunfire(self, accuracy: int, differential: int, band: Band,
                old_armor: bool) -> tuple[tuple[Face, ...], Damage]:
        """Faces and damage for one battery firing at a target."""
        def make() -> tuple[tuple[Face, ...], Damage]:
            faces = self.faces(differential, "gun", band, old_armor)
            return faces, self.damage(self.hits(accuracy), faces, differential)

        return self._cached(("gunfire", accuracy, differential, band, old_armor), make)

    def spread(self, torpedoes: int) -> icepool.Die[int]:
        """Number of hits on the first ship a spread of ``torpedoes`` crosses."""
        def make() -> icepool.Die[int]:
            from generator.rules import dietable

            hits = self.card.torpedo_hits
            return dietable.roll(hits.table, hits.column(torpedoes)).map(lambda cell: int(cell))

        return self._cached(("spread", torpedoes), make)

    def torpedo(self, torpedoes: int, differential: int, dud_faces: frozenset[int],
                bow_or_stern: bool = False) -> tuple[tuple[Face, ...], Damage]:
        """Faces and damage for a spread crossing a target (halved near bow or stern)."""
        def make() -> tuple[tuple[Face, ...], Damage]:
            count = (self.card.torpedo_hits.halved(torpedoes) if bow_or_stern else torpedoes)
            faces = self.faces(differential, "torpedo", "close", False, dud_faces)
            return faces, self.damage(self.spread(count), faces, differential)

        return self._cached(("torpedo", torpedoes, differential, dud_faces, bow_or_stern),
                            make)

    def wild_chance(self) -> Fraction:
        """Chance a spread's first roll sends a wild torpedo back at the firer."""
        return Fraction(1, 6)

    def torpedo_duds(self, nation: str, year: int) -> frozenset[int]:
        """Dud faces for a navy's torpedoes in a year."""
        return self._cached(("duds", nation, year),
                            lambda: frozenset(self.card.torpedo_hits.dud_faces(nation, year)))

    # -- anti-aircraft, damage control --------------------------------------------------

    def aa(self, column: int, shift: int = 0) -> icepool.Die[int]:
        """Groups shot down for an AA column (index) read ``shift`` columns to the right."""
        from generator.rules import dietable

        table = self.card.aa_results
        return dietable.roll(table.table, column, shift=shift).map(table.groups)

    def damage_control(self, quality: Literal["good", "poor"]) -> dict[str, Fraction]:
        """Final outcome probabilities (R, C, O, W) with the re-rolls resolved."""
        from generator.rules import dietable

        table = self.card.damage_control

        def outcome(result: str) -> icepool.Die[str] | str:
            reroll = table.rerolls.get(result)
            if reroll is None:
                return result
            return dice.d(6).map(lambda r: reroll.then if r in reroll.faces else reroll.otherwise)

        die = dice.then(dietable.roll(table.table, table.table.index(quality)), outcome)
        dist: dict[str, Fraction] = dice.distribution(die)
        return {k: dist.get(k, Fraction(0)) for k in ("R", "C", "O", "W")}
