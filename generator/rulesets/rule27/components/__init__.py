"""Rule 27's components; importing the package registers every one of them."""

from generator.rulesets.rule27.components import roster as roster
from generator.rulesets.rule27.components import sheets as sheets
