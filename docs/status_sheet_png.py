"""Regenerate docs/status-sheet.png (the README's picture) from the current status sheet.

Run from the repository root: ``python docs/status_sheet_png.py``. It draws the Allied
sheet of the bundled Savo Island scenario on A4 and keeps the top of the first page
(the first ship block and the start of the second), in grey, as the README shows it.
"""

from __future__ import annotations

from pathlib import Path

import pypdfium2

from generator.kit.pipeline import validated_library
from generator.rulesets.naval_action import RULESET
from generator.rulesets.naval_action.components.status_sheet import render_sheets

OUT = Path(__file__).resolve().parent / "status-sheet.png"
SCALE = 833 / 595.2756
"""Pixels per point: 833 px across an A4 page."""
HEIGHT = 601
"""Pixels kept from the top of the page."""


def main() -> None:
    """Render the sheet and write the PNG."""
    library = validated_library([])
    scenario = library.scenarios["savo-island"].model
    views = RULESET._views(library, scenario)  # exactly the views a build renders
    side = next(s for s in scenario.sides if s.id == "allied")
    line = f"{scenario.name} · {scenario.date_label or scenario.date.isoformat()}"
    sheet = render_sheets(views[side.id], "a4", f"Ship status: {side.name}", line,
                          f"sheets:{side.id}", "AL-")
    page = pypdfium2.PdfDocument(sheet.pdf)[0]
    image = page.render(scale=SCALE).to_pil().convert("L")
    image.crop((0, 0, image.width, HEIGHT)).save(OUT, optimize=True)
    print(f"wrote {OUT} ({image.width} x {HEIGHT})")


if __name__ == "__main__":
    main()
