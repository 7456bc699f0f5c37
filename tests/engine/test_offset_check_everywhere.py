"""Every kit with two-sided pieces carries the back-offset check sheet (issue 29, item 6).

``build`` of NAVAL ACTION, Surface Action, modern naval and Rule 27 (and ``markers`` of
modern naval) compose a ``back-offset-check.pdf`` when printing double-sided: the two
pages of pin targets and scales read back from the composed bytes. With ``--duplex off``
there is no back to align, and no sheet.
"""

from __future__ import annotations

import pytest

from generator.kit.pipeline import KitOptions, compose
from generator.kit.seam import Request
from generator.pieces.duplexcheck import FRONT_NOTES
from generator.pieces.imposition import Options
from tests.pdftext import page_texts

SHEET = "back-offset-check.pdf"


@pytest.mark.parametrize("command,scenario", [
    ("kit", "savo-island"), ("kit", "guadalcanal-battleships"), ("kit", "latakia-1973"),
    ("kit", "mediterranean-1940"), ("markers", "latakia-1973")])
def test_the_check_sheet_is_in_every_two_sided_kit(command: str, scenario: str) -> None:
    kit = compose(Request(command, scenario=scenario), only=[SHEET])
    texts = page_texts(kit.files[SHEET])
    assert len(texts) == 2
    assert "Back-offset check." in texts[0].replace("\n", " ")
    assert FRONT_NOTES[0].split(".")[0] in texts[0]
    assert "Back of the offset check (flip on the long edge)" in texts[1].replace("\n", " ")
    off = compose(Request(command, scenario=scenario), only=[SHEET],
                  options=KitOptions(sheets=Options(duplex="off")))
    assert SHEET not in off.files
