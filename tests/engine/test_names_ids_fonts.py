"""Ship names in any script: unique marker ids, and docs that name only scripts the fonts draw.

Issue 20: two Cyrillic names differing only by a number (``Киров 2``, ``Максим 2``: both
slug to ``2``) crashed the marker sheets on a duplicate id; the schema reference listed
Greek although the bundled PT Sans fonts have no Greek letters (a build warned about a
name the docs said was fine).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from click.testing import CliRunner

from generator.cli.main import main
from generator.core import fonts
from generator.rulesets.naval_action.components.markers import MarkerMaker
from tests.paths import ROOT

NAMES = ["Киров 2", "Максим 2", "Горький 2"]  # every ASCII slug is "2"


def _views(class_id: str, names: list[str]) -> list[SimpleNamespace]:
    cls = SimpleNamespace(id=class_id, ships=[])
    for name in names:
        cls.ships.append(SimpleNamespace(name=name, aka=()))
    return [SimpleNamespace(name=ship.name, ship=ship, cls=cls) for ship in cls.ships]


def _maker() -> MarkerMaker:
    maker = MarkerMaker.__new__(MarkerMaker)  # sid() needs no tables
    maker._owners = {}
    return maker


def test_ship_ids_whose_slugs_collide_are_unique_and_stable() -> None:
    views = _views("kirov", NAMES)
    maker = _maker()
    ids = [maker.sid(view) for view in views]
    # The digest is sha256 of "class id NUL ship name": it names the ship, not the order.
    assert ids == ["2", "2-kirov", "2-kirov-76af09e6"]
    assert [maker.sid(view) for view in views] == ids  # asked again: the same ids
    again = _maker()
    assert [again.sid(view) for view in views] == ids  # another run: the same ids


def test_same_name_in_another_class_gets_the_class_id() -> None:
    maker = _maker()
    first = _views("kirov", ["Киров 2"])[0]
    second = _views("chapaev", ["Киров 2"])[0]
    assert (maker.sid(first), maker.sid(second)) == ("2", "2-chapaev")


def test_colliding_cyrillic_names_build_marker_sheets(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    klass = yaml.safe_load((ROOT / "shipdata/classes/us/farragut.yaml").read_text("utf-8"))
    klass.update(id="kirov-test", nation="SU", unverified=[])
    klass["ships"] = [{"name": name, "commissioned": "1935-01-01"} for name in NAMES]
    (data / "kirov-test.yaml").write_text(yaml.safe_dump(klass, allow_unicode=True), "utf-8")
    scenario = yaml.safe_load(
        (ROOT / "shipdata/naval_action/scenarios/komandorski.yaml").read_text("utf-8"))
    scenario["id"] = "kirov-clash"
    scenario.pop("setup", None)  # its groups name the ships this test replaces
    scenario["sides"][0]["ships"] = [{"class": "kirov-test", "name": name} for name in NAMES]
    (data / "kirov-clash.yaml").write_text(yaml.safe_dump(scenario, allow_unicode=True),
                                           "utf-8")
    result = CliRunner().invoke(main, ["markers", "kirov-clash", "--data", str(data), "--out",
                                       str(tmp_path / "out"), "--png", str(tmp_path / "png")])
    assert result.exit_code == 0, result.output
    fronts = sorted(p.name for p in (tmp_path / "png").rglob("ship.2*.png"))
    assert [name for name in fronts if ".back." not in name] == [
        "ship.2-kirov-test-" + _digest("kirov-test", "Горький 2") + ".png",
        "ship.2-kirov-test.png", "ship.2.png"]


def _digest(class_id: str, name: str) -> str:
    return hashlib.sha256(f"{class_id}\0{name}".encode()).hexdigest()[:8]


# -- scripts the fonts draw vs scripts the docs name ----------------------------------

SAMPLES = {
    "Latin Extended": "ČčŁłŐőŞşĞğŽžÆæØøÅåßÑñ",
    "Cyrillic": "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдежзийклмнопрстуфхцчшщъыьэюяЁё",
    "Greek": "ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρστυφχψωςάέήίόύώ",
}
ALL_FONTS = (fonts.REGULAR, fonts.BOLD, fonts.NARROW, fonts.NARROW_BOLD)


def _covered(script: str) -> bool:
    return all(not fonts.missing_characters(SAMPLES[script], font) for font in ALL_FONTS)


def test_the_fonts_draw_latin_and_cyrillic_but_not_greek() -> None:
    assert _covered("Latin Extended") and _covered("Cyrillic")
    assert fonts.missing_characters("Αθήνα", fonts.REGULAR) == ["Α", "θ", "ή", "ν", "α"]


@pytest.mark.parametrize("doc", ["docs/shipdata-naval-action.md",
                                 "templates/naval_action/schema-reference.md.j2"])
def test_docs_claim_only_scripts_the_fonts_draw(doc: str) -> None:
    text = (ROOT / doc).read_text(encoding="utf-8")
    claim = re.search(r"any script the fonts cover \(([^;)]*)", " ".join(text.split()))
    assert claim, "the conventions name the scripts the fonts cover"
    for script in SAMPLES:
        assert (script in claim.group(1)) == _covered(script), (script, claim.group(1))


def test_a_greek_name_warns_at_build(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    klass = yaml.safe_load((ROOT / "shipdata/classes/us/farragut.yaml").read_text("utf-8"))
    klass.update(id="greek-test", unverified=[])
    klass["ships"] = [{"name": "Αθήνα", "commissioned": "1935-01-01", "aka": ["Athina"]}]
    (data / "greek-test.yaml").write_text(yaml.safe_dump(klass, allow_unicode=True), "utf-8")
    result = CliRunner().invoke(main, ["build", "--class", "greek-test", "--ruleset",
                                       "naval-action", "--data", str(data), "--out",
                                       str(tmp_path / "out"), "-q"])
    assert result.exit_code == 0, result.output
    assert ("ship 'Αθήνα' has 'Α' (U+0391), 'θ' (U+03B8), 'ή' (U+03AE), 'ν' (U+03BD), "
            "'α' (U+03B1) that no bundled font can print") in result.stderr
