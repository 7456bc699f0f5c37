"""NAVAL ACTION files name only the Master List's 15 types, a share of the shared 21.

The schema reads the shared ``ShipType`` through ``TypeSubset``: a type another ruleset
rates (a frigate, FF) is refused in a NAVAL ACTION file with a message that lists only
the types NAVAL ACTION has rules for, as the ruleset's own enum did before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.data.shipclass import ShipType
from generator.data.validation import validate
from generator.data.yamlsource import load_yaml
from generator.rulesets.naval_action.schema import SHIP_TYPES, ShipClass

NA_TYPES = "BB, BC, CV, CVL, CVE, CA, CL, CLAA, DL, DD, DE, TB, SS, AK, AP"
CLASS = """\
kind: ship-class
ruleset: naval-action
id: test-class
name: Test
nation: UK
{type}length_ft: 300
armor: {{belt_in: 0}}
speed_kn: 30
ships: [{{name: Testy, commissioned: 1940-01-01}}]
sources: [a book]
"""


def problems(tmp_path: Path, type_line: str) -> list[str]:
    """The located problems of a class file with this ``type:`` line (or none)."""
    path = tmp_path / "test-class.yaml"
    path.write_text(CLASS.format(type=type_line), encoding="utf-8")
    doc, found = load_yaml(path, "test-class.yaml")
    assert not found
    model, found = validate(ShipClass, doc)
    assert (model is None) == bool(found)
    return [str(p) for p in found]


def test_the_subset_is_the_first_fifteen_shared_types_in_order() -> None:
    assert ", ".join(SHIP_TYPES.codes()) == NA_TYPES
    assert list(SHIP_TYPES) == list(ShipType)[:15]
    assert len(SHIP_TYPES) == 15


@pytest.mark.parametrize(("line", "message"), [
    ("type: FF\n", f"test-class.yaml:6:7: type: found 'FF', expected one of {NA_TYPES}"),
    ("type: BBB\n", f"test-class.yaml:6:7: type: found 'BBB', expected one of {NA_TYPES}; "
                    "did you mean 'BB'?"),
    ("type: 7\n", f"test-class.yaml:6:7: type: found 7, expected one of {NA_TYPES}"),
    ("", f"test-class.yaml:1:1: type: found nothing, expected one of {NA_TYPES} (required)"),
])
def test_a_type_without_rules_is_refused_naming_only_the_known_ones(
        tmp_path: Path, line: str, message: str) -> None:
    assert problems(tmp_path, line) == [message]


def test_a_known_type_reads_as_the_shared_enum(tmp_path: Path) -> None:
    assert problems(tmp_path, "type: CLAA\n") == []
    data = {"kind": "ship-class", "ruleset": "naval-action", "id": "t", "name": "T",
            "nation": "UK", "type": "CLAA", "length_ft": 300, "armor": {"belt_in": 0},
            "speed_kn": 30, "ships": [{"name": "T", "commissioned": "1940-01-01"}],
            "sources": ["a book"]}
    assert ShipClass.model_validate(data).type is ShipType.CLAA
