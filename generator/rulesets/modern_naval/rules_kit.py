"""Imports every modern naval rules component module, so each registers on ``COMPONENTS``.

The ruleset class imports this once: reference-card, markers, aids, resolution-tables,
matchups and dice are then all registered.
"""

from generator.rulesets.modern_naval import aids, markers, matchups, reference, resolution

__all__ = ["aids", "markers", "matchups", "reference", "resolution"]
