"""NAVAL ACTION's commands and calculators, as the seam reads them (``Ruleset.commands``).

Its calculator is ``quarterdeck odds`` itself: one firer against one target, battery by
battery and band by band (accuracy, hits, faces, damage), answered by ``Ruleset.odds``
from the index ``ask.py`` keeps in the user cache. It brings no command of its own: its
kit, tables, markers and aids are the shared commands' recipes in ``kit.yaml``.
"""

from __future__ import annotations

import click

from generator.kit.seam import Calculator

CALCULATORS = (Calculator("odds", "a firer and a target by ship name"),)
"""NAVAL ACTION's calculator (``Ruleset.calculators``): ``quarterdeck odds``."""


def commands() -> list[click.Command]:
    """The commands NAVAL ACTION adds to ``quarterdeck`` (``Ruleset.commands``): none."""
    return []
