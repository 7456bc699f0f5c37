"""Every ``markers`` output with two-sided pieces carries the back-offset check (issue 29, item 6).

NAVAL ACTION, Surface Action, modern naval (new) and Naval Warfare compose a
``back-offset-check.pdf`` when printing double-sided: the two pages of pin targets and
scales read back from the composed bytes. With ``--duplex off`` there is no back to
align, and no sheet. (``build`` packets do not carry it yet: see the report.)
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
    ("markers", "savo-island"), ("markers", "guadalcanal-battleships"),
    ("markers", "latakia-1973"), ("markers", "balance-1942")])
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
