"""One-off migration: merge the per-ruleset class libraries into shipdata/classes/.

Run from the repository root before the old folders are deleted:
``python tools/merge_shipdata.py``. A NAVAL ACTION file is kept as text (comments and
layout survive); the Surface Action file of the same class adds its displacement, armament
in words, sources and unverified paths, and every hand rating the rules do not reproduce
becomes an override in ``ratings: {surface-action: ...}``. Facts the two files disagreed on
are listed under ``discrepancies:``.

The files were edited by hand after the merge (Takao's fits, reconstruction dates, notes),
so running the tool again would undo those edits.
"""

from __future__ import annotations

import math
import re
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.data.convert import HEADER, convert_data, dump  # noqa: E402
from generator.data.shipclass import ShipClass  # noqa: E402
from generator.rulesets.surface_action import rating as sa_rating  # noqa: E402

OLD = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
"""Where the old per-ruleset folders are (a checkout of the commit before the merge)."""
NA = OLD / "shipdata" / "naval_action" / "classes"
SA = OLD / "shipdata" / "surface_action" / "classes"
OUT = ROOT / "shipdata" / "classes"
SOURCED = {
    ("independence", "Independence", "commissioned"): (
        "1943-01-14",
        "Naval History and Heritage Command, 'USS Independence (CV-22/CVL-22)' "
        "(https://www.history.navy.mil/our-collections/photography/us-navy-ships/"
        "alphabetical-listing/i/uss-independence--cv-22-cvl-22-0.html): commissioned "
        "14 January 1943"),
}
"""Figures checked against a further source: the Surface Action file's figure wins."""
SPLIT = {"type-1934": ("type-1934a", "Type 1934A"), "town": ("edinburgh", "Town (Edinburgh)")}
"""Surface Action classes whose extra ships NAVAL ACTION leaves out: they get a class file
of their own (rated by Surface Action only until their facts are filled in)."""


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def _blocks(text: str) -> list[tuple[str, str]]:
    """Top-level keys with their text (leading comments belong to the next key)."""
    blocks: list[tuple[str, str]] = []
    pending = ""
    for line in text.splitlines(keepends=True):
        match = re.match(r"^([a-z_]+):", line)
        if match:
            blocks.append((match.group(1), pending + line))
            pending = ""
        elif blocks and (line.startswith((" ", "\t")) or not line.strip()):
            key, body = blocks[-1]
            blocks[-1] = (key, body + pending + line)
            pending = ""
        else:
            pending += line
    if pending and blocks:
        key, body = blocks[-1]
        blocks[-1] = (key, body + pending)
    return blocks


def _speed_in(knots: float) -> float:
    return math.floor(knots / 6 * 2) / 2


def _same_guns(hand: list[dict[str, Any]], rule: list[dict[str, Any]]) -> bool:
    keys = ("weapon", "factors", "role")
    return [tuple(b.get(k) for k in keys) for b in hand] == [
        tuple(b.get(k) for k in keys) for b in rule]


def _sa_overrides(merged: dict[str, Any], sa: dict[str, Any]) -> dict[str, Any]:
    """Hand ratings of the Surface Action file that the rules do not reproduce."""
    facts = ShipClass.model_validate(merged)
    rule = sa_rating.derived(facts)
    block: dict[str, Any] = {}
    if sa["type"] != rule["type"]:
        block["type"] = sa["type"]
    if not _same_guns(sa.get("guns", []), rule["guns"]):
        block["guns"] = sa.get("guns", [])
    hand_t, rule_t = sa.get("torpedoes"), rule["torpedoes"]
    if (hand_t is None) != (rule_t is None) or (hand_t and rule_t and (
            hand_t["weapon"], hand_t["factors"]) != (rule_t["weapon"], rule_t["factors"])):
        block["torpedoes"] = hand_t
    for key in ("size", "armor", "fire_control", "damage_control"):
        if sa[key] != rule[key]:
            block[key] = sa[key]
    old_speed = sa.get("speed_in") or _speed_in(sa["facts"]["speed_kn"])
    if old_speed != _speed_in(merged["speed_kn"]):
        block["speed_in"] = old_speed
    if "night_sighting" in sa:
        block["night_sighting"] = sa["night_sighting"]
    hand_r = [(r["range_in"], r["fitted"]) for r in sa.get("radar", [])]
    if hand_r != [(r["range_in"], r["fitted"]) for r in rule["radar"]]:
        block["radar"] = sa.get("radar", [])
    notes = {s["name"]: s["note"] for s in sa["ships"] if s.get("note")}
    shared = {s["name"]: s.get("note") for s in merged["ships"]}
    notes = {k: v for k, v in notes.items() if shared.get(k) != v}
    if notes:
        block["ship_notes"] = notes
    if sa.get("notes"):
        block["notes"] = sa["notes"]
    return block


def _discrepancies(na: dict[str, Any], sa: dict[str, Any]) -> list[str]:
    out = []
    facts = sa["facts"]
    pairs = [("length_ft", na["length_ft"], facts["length_ft"], "ft"),
             ("speed_kn", na["speed_kn"], facts["speed_kn"], "kn"),
             ("armor.belt_in", na["armor"]["belt_in"], facts.get("belt_in", 0), "in")]
    for path, a, b, unit in pairs:
        if float(a) != float(b):
            out.append(f"{path}: {a:g} {unit} kept from the NAVAL ACTION file; the Surface "
                       f"Action file had {b:g} {unit}")
    sa_ships = {s["name"]: s for s in sa["ships"]}
    for ship in na["ships"]:
        other = sa_ships.get(ship["name"])
        if other is None:
            continue
        for key in ("commissioned", "lost", "hull"):
            if ship.get(key) != other.get(key) and other.get(key) is not None:
                out.append(f"{ship['name']} {key}: {ship.get(key)} kept from the NAVAL ACTION "
                           f"file; the Surface Action file had {other.get(key)}")
    names = {s["name"] for s in na["ships"]}
    for name in sa_ships:
        if name not in names:
            split = SPLIT.get(na["id"])
            where = f"moved to '{split[0]}'" if split else "not added (check the class list)"
            out.append(f"{name}: in the Surface Action file only, {where}")
    return out


def _remap_unverified(path: str, sa: dict[str, Any], na: dict[str, Any]) -> str:
    parts = path.split(".")
    if parts[0] == "facts":
        return {"belt_in": "armor.belt_in"}.get(parts[1], parts[1])
    if parts[0] == "ships" and len(parts) > 1 and parts[1].isdigit():
        name = sa["ships"][int(parts[1])]["name"]
        index = next((i for i, s in enumerate(na["ships"]) if s["name"] == name), None)
        if index is not None:
            return ".".join(["ships", str(index), *parts[2:]])
    return "ratings.surface-action." + path


def merge_text(na_path: Path, sa_path: Path | None) -> str:
    """The shared class file for a NAVAL ACTION file and maybe its Surface Action twin."""
    text = na_path.read_text(encoding="utf-8")
    na = _load(na_path)
    blocks = [(k, b) for k, b in _blocks(text) if k != "ruleset"]
    first_key, first = blocks[0]
    first = re.sub(r"^# NAVAL ACTION ship class\. Reference: .*\n",
                   "# Ship class, written once for every ruleset. Reference: docs/shipdata.md\n",
                   first)
    blocks[0] = (first_key, first)
    if sa_path is None:
        return "".join(b for _, b in blocks)
    sa = _load(sa_path)
    checked = []
    for (class_id, ship, key), (value, source) in SOURCED.items():
        if class_id != na["id"]:
            continue
        index = next(i for i, (k, _) in enumerate(blocks) if k == "ships")
        old = next(str(x[key]) for x in na["ships"] if x["name"] == ship)
        body = re.sub(rf"(\{{name: {re.escape(ship)},[^\n]*{key}: ){old}", rf"\g<1>{value}",
                      blocks[index][1])
        blocks[index] = ("ships", body)
        na = {**na, "ships": [{**x, key: yaml.safe_load(value)} if x["name"] == ship else x
                              for x in na["ships"]],
              "sources": [*na["sources"], source]}
        checked.append(f"{ship} {key}: {value} from the Surface Action file, confirmed by "
                       f"a further source; the NAVAL ACTION file had {old}")
        index = next(i for i, (k, _) in enumerate(blocks) if k == "sources")
        blocks[index] = ("sources", blocks[index][1].rstrip("\n") + "\n  - "
                         + yaml.safe_dump(source, allow_unicode=True, width=10_000).strip()
                         .removesuffix("\n...") + "\n")
    extra_after: dict[str, str] = {}
    facts = sa["facts"]
    if facts.get("displacement_t"):
        extra_after["length_ft"] = f"displacement_t: {facts['displacement_t']}\n"
    extra_after["speed_kn"] = dump({"armament": facts["armament"]})
    merged = dict(na)
    merged.pop("ruleset")
    if facts.get("displacement_t"):
        merged["displacement_t"] = facts["displacement_t"]
    merged["armament"] = facts["armament"]
    block = _sa_overrides(merged, sa)
    tail: dict[str, Any] = {}
    if block:
        tail["ratings"] = {"surface-action": block}
    discrepancies = checked + _discrepancies(na, sa)
    out = []
    for key, body in blocks:
        if key == "sources":
            body = body.rstrip("\n") + "\n"
            for source in sa.get("sources", []):
                if source not in na["sources"]:
                    body += "  - " + yaml.safe_dump(source, allow_unicode=True,
                                                    width=10_000).strip().removesuffix(
                                                        "\n...") + "  # Surface Action file\n"
        if key == "unverified":
            body = body.rstrip("\n") + "\n"
            for path in sa.get("unverified", []):
                new = _remap_unverified(path, sa, na)
                if new not in na.get("unverified", []):
                    body += f"  - {new}    # from the Surface Action file\n"
        out.append(body)
        if key in extra_after:
            out.append(extra_after[key])
        if key == "sources":
            if "unverified" not in dict(blocks) and sa.get("unverified"):
                out.append(dump({"unverified": [_remap_unverified(p, sa, na)
                                                for p in sa["unverified"]]}))
            if discrepancies:
                out.append(dump({"discrepancies": discrepancies}))
    if tail:
        out.append(dump(tail))
    return "".join(out)


def main() -> None:
    """Write shipdata/classes/<nation>/<id>.yaml for every bundled class."""
    na_files = {p.stem: p for p in NA.glob("*/*.yaml")}
    sa_files = {p.stem: p for p in SA.glob("*/*.yaml")}
    for class_id in sorted(set(na_files) | set(sa_files)):
        if class_id in na_files:
            path = na_files[class_id]
            text = merge_text(path, sa_files.get(class_id))
        else:
            path = sa_files[class_id]
            data = convert_data(_load(path), "surface-action")
            text = HEADER.format(ruleset="surface-action") + dump(data)
        target = OUT / path.parent.name / f"{class_id}.yaml"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        if class_id in SPLIT and class_id in sa_files:
            _write_split(class_id, _load(na_files[class_id]), _load(sa_files[class_id]))


def _write_split(class_id: str, na: dict[str, Any], sa: dict[str, Any]) -> None:
    """A class file for the Surface Action file's ships that NAVAL ACTION leaves out."""
    new_id, name = SPLIT[class_id]
    names = {s["name"] for s in na["ships"]}
    data = convert_data({**sa, "id": new_id, "name": name,
                         "ships": [s for s in sa["ships"] if s["name"] not in names]},
                        "surface-action")
    data["ratings"]["naval-action"] = {
        "unrated": f"the NAVAL ACTION library leaves these ships out of '{class_id}' (see its "
                   "notes); add gun positions, ranges and rounds to rate them"}
    data["discrepancies"] = [f"split from the Surface Action '{class_id}' file, whose facts "
                             "and ratings covered these ships too; check length and armament "
                             "against a source"]
    target = OUT / sa["nation"].lower() / f"{new_id}.yaml"
    target.write_text(HEADER.format(ruleset="surface-action") + dump(data), encoding="utf-8")


if __name__ == "__main__":
    main()
