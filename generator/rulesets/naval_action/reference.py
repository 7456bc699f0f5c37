"""The schema reference page, generated from the models and the derivation tables."""

from __future__ import annotations

from pydantic import BaseModel

from generator.data.schemadoc import sections
from generator.data.setup import SETUP_MODELS
from generator.pages.templating import render_text
from generator.rulesets.naval_action import schema
from generator.rulesets.naval_action.rules import load_rules

CLASS_MODELS: list[type[BaseModel]] = [
    schema.ShipClass, schema.Ship, schema.Armor, schema.GunBattery, schema.AAGuns,
    schema.TorpedoMount, schema.Radar, schema.Aircraft, schema.Overrides,
]
SCENARIO_MODELS: list[type[BaseModel]] = [
    schema.Scenario, schema.Side, schema.ShipRef, schema.Special,
    *SETUP_MODELS,
]


def schema_reference() -> str:
    """Render ``docs/shipdata-naval-action.md``."""
    return render_text(
        "naval_action/schema-reference.md.j2", escape=False,
        class_models=sections(CLASS_MODELS), scenario_models=sections(SCENARIO_MODELS),
        rules=load_rules(), nations=schema.NATION_NAMES, types=schema.TYPE_NAMES,
    )
