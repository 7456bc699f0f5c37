"""Unicode names print with the bundled fonts; a character no font has is a named warning."""

from __future__ import annotations

from pathlib import Path

from generator.kit.pipeline import build
from tests.paths import ROOT
from tests.pdftext import page_texts


def test_cyrillic_and_macrons_render(tmp_path: Path) -> None:
    result = build(class_id="gangut", ship="Marat", out=tmp_path)
    text = page_texts(result.folder / "gangut.pdf")[1]  # after the print note
    assert "МАРАТ" in text
    assert not result.warnings


def test_uncovered_character_is_a_warning_naming_ship_and_character(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    text = (ROOT / "shipdata/classes/jp/takao.yaml").read_text(encoding="utf-8")
    (data / "takao.yaml").write_text(text.replace("name: Maya,", "name: 摩耶 Maya, aka: [Maya],"),
                                     encoding="utf-8")
    result = build(class_id="takao", ship="Maya", data=[data], out=tmp_path / "out")
    assert any("ship '摩耶 Maya'" in w and "'摩' (U+6469)" in w and "'耶' (U+8036)" in w
               for w in result.warnings), result.warnings
