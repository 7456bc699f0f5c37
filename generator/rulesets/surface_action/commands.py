"""Surface Action's commands and calculators, as the seam reads them (``Ruleset.commands``).

Its calculator is ``quarterdeck odds`` itself: a firer's chances of effective hits on a
target in a scenario, band by band, answered by ``Ruleset.odds`` from the index
``ask.py`` keeps in the user cache. It brings no command of its own: its kit, tables,
counters and aids are the shared commands' recipes in ``kit.yaml``.
"""

from __future__ import annotations

import click

from generator.kit.seam import Calculator

CALCULATORS = (Calculator("odds", "a scenario's firer and target by ship name"),)
"""Surface Action's calculator (``Ruleset.calculators``): ``quarterdeck odds``."""


def commands() -> list[click.Command]:
    """The commands Surface Action adds to ``quarterdeck`` (``Ruleset.commands``): none."""
    return []
