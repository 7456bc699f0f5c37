"""The Surface Action schema reference page, generated from the models."""

from __future__ import annotations

from pydantic import BaseModel

from generator.data.schemadoc import sections
from generator.data.setup import SETUP_MODELS
from generator.pages.templating import render_text
from generator.rulesets.surface_action import schema

CLASS_MODELS: list[type[BaseModel]] = [
    schema.ShipClass, schema.Ship, schema.Facts, schema.GunBattery, schema.Torpedoes,
    schema.Radar,
]
SCENARIO_MODELS: list[type[BaseModel]] = [
    schema.Scenario, schema.Weapons, schema.Weapon, schema.Side, schema.ShipRef,
    schema.Special, schema.Cards, schema.HitChecks, schema.HitCheck,
    *SETUP_MODELS,
]


def schema_reference() -> str:
    """Render ``docs/shipdata-surface-action.md``."""
    return render_text(
        "surface_action/schema-reference.md.j2", escape=False,
        class_models=sections(CLASS_MODELS), scenario_models=sections(SCENARIO_MODELS),
        nations=schema.NATION_NAMES, types=schema.TYPE_NAMES,
    )
