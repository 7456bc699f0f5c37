"""Surface Action's table aids: what the turn guides and the ruler share.

Both aids are printed at the table's own scale, 1 in of paper per inch of table (72 pt),
and every number on them comes from ``tables/charts.yaml`` through ``Charts``: a house
rule that changes a turning circle or a cost changes the aid with it. The turn guides
are ``turnguide.py``, the range and speed ruler ``ruler.py``; here are the lengths both
print (``inches_text``, ``yards_text``) and the table's scale.
"""

from __future__ import annotations

from fractions import Fraction

from generator.core.scales import Scale, parse_scale
from generator.core.units import quarters
from generator.rulesets.surface_action.charts import Charts


def inches_text(inches: float, unit: bool = True) -> str:
    """A length as players write it: ``½ in``, ``1½ in``, ``3 in``, ``1.1 in`` otherwise.

    Args:
        inches: The length.
        unit: Append `` in``.

    Returns:
        The text.

    """
    exact = Fraction(inches).limit_denominator(64)
    written = quarters(exact) if abs(float(exact) - inches) < 1e-9 else None
    return (f"{inches:g}" if written is None else written) + (" in" if unit else "")


def yards_text(scale: Scale) -> str:
    """Yards per inch with a thousands comma (``1,000``), as the rest of the kit prints it."""
    return f"{scale.yards_per_unit:,.0f}" if scale.yards.denominator == 1 else scale.yards_text()


def table_scale(charts: Charts) -> Scale:
    """The table's ground scale (1,000 yd per inch in the text), as ``generator.core.scales`` says.

    Reading yards through ``Scale`` keeps this ruler's yard labels in step with every other
    ruler the kit prints.
    """
    return parse_scale(f"{charts.movement.yards_per_in} yards per in")
