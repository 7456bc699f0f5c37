"""Page furniture: what every page carries besides its content.

The heading, the footer lines and page number, a club's logo and the calibration bars.
``Furniture.draw`` (or ``finish_page``) is the one place anything draws them. On a
build's canvas the page number is the packet's (``pagenumbers.number_slot``): the same page
can sit at another place in each packet, so the number is stamped as the packet is
written, and it matches the page numbers the packet's print note gives.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from reportlab.lib import colors
from reportlab.pdfgen.canvas import Canvas

from generator.core import fonts
from generator.core.units import MM
from generator.pages import branding
from generator.pages.calibration import calibration_height, draw_calibration, label_baseline
from generator.pages.layout import Pen, SafeBox
from generator.pages.pagenumbers import number_slot

FOOTER_BASELINE = 1.5 * MM
"""Footer baselines sit this far above the safe box's bottom (descenders stay inside)."""
FOOTER_STEP = 3.1 * MM
"""Distance between footer lines when a page has more than one."""
FOOTER_SIZE = 7.0
FOOTER_LOGO = 3.2 * MM
"""Height of a club's logo in the footer: under the line above it."""
FOOTER_SPACE = 6 * MM
"""Room a one-line footer takes from the content (baseline, type and a clear gap)."""
NUMBER_ROOM = 20 * MM
"""Width kept free at the footer's right for the page number."""


# ---------------------------------------------------------------- furniture


@dataclass(frozen=True)
class Furniture:
    """What every page of a component carries besides its content.

    Attributes:
        footer: Footer text at the bottom left ("" for none).
        lines: Further footer lines, drawn above ``footer`` (top line first).
        rule: Draw a rule above the footer lines.
        label: Page-label prefix put before the page number ("Card-" gives "Card-1")
            where a component is drawn on its own; in a packet the number is the
            packet's ("page 12").
        suffix: Text after the page number of a 0-based page (" · front").
        numbered: Print a page number at the bottom right.
        heading: Heading at the top left of every page ("" for none).
        heading_size: Its size in points.
        heading_drop: How far its baseline sits below the safe box's top (points); the
            content starts 3 mm below that baseline.
        running: Small print at the top right (kit and scale on measuring pages).
        calibration: Draw the 100 mm / 4 in bars under the footer.

    """

    footer: str = ""
    lines: tuple[str, ...] = ()
    rule: bool = False
    label: str = ""
    suffix: Callable[[int], str] | None = field(default=None)
    numbered: bool = True
    heading: str = ""
    heading_size: float = 11.0
    heading_drop: float = 4.2 * MM
    running: str = ""
    calibration: bool = False

    def page_number(self, page: int) -> str:
        """The number text of a 0-based page drawn on its own ("" when not numbered)."""
        if not self.numbered:
            return ""
        return f"{self.label}{page + 1}{self.page_suffix(page)}"

    def page_suffix(self, page: int) -> str:
        """What follows a 0-based page's number ("" for most pages)."""
        return self.suffix(page) if self.suffix is not None else ""

    def bottom(self, box: SafeBox) -> float:
        """Height the furniture takes at the bottom of ``box`` (footer and calibration)."""
        used = calibration_height(box.width) if self.calibration else 0.0
        # A club's name or logo takes the bottom line even on pages with no footer of
        # their own (``draw`` prints them there): the content must stop above it.
        club = bool(branding.footer("")) or branding.logo_width(FOOTER_LOGO) > 0
        rows = len(self.lines) + 1 if (self.footer or self.lines or self.numbered or club) else 0
        if rows:
            used += FOOTER_SPACE + (rows - 1) * FOOTER_STEP
        return used

    def top(self, box: SafeBox) -> float:
        """Height the furniture takes at the top of ``box`` (heading line)."""
        if not (self.heading or self.running):
            return 0.0
        return self.heading_drop + 3 * MM

    def draw(self, canvas: Canvas, box: SafeBox, page: int, heading: str | None = None) -> None:
        """Draw the furniture of one page (without ending it).

        Args:
            canvas: The canvas, on the page.
            box: The page's safe box.
            page: 0-based page within the component.
            heading: This page's heading, when it differs from ``self.heading``
                (e.g. "... (continued)").

        """
        pen = Pen(canvas)
        canvas.saveState()
        canvas.setFillColor(colors.black)
        canvas.setStrokeColor(colors.black)
        base = box.y + FOOTER_BASELINE
        if self.calibration:
            base += draw_calibration(canvas, box)
        texts = [*self.lines, branding.footer(self.footer)]
        number = self.page_number(page)
        width = box.width - NUMBER_ROOM
        # A club's logo (``branding.yaml``) sits at the start of the bottom line.
        indent = branding.logo_width(FOOTER_LOGO)
        branding.draw_logo(canvas, box.x, base - 0.9 * MM, FOOTER_LOGO)
        for i, text in enumerate(reversed(texts)):
            if text:
                shift = indent if i == 0 else 0.0
                pen.text(box.x + shift, base + i * FOOTER_STEP, text, size=FOOTER_SIZE,
                         narrow=True, width=width - shift)
        if not self.numbered and self.calibration and not any(texts) and not indent:
            # A measuring page keeps its bottom for the bars: in a packet its number
            # goes at the end of the bars' instruction line.
            number_slot(canvas, box.right, label_baseline(box), fonts.NARROW, FOOTER_SIZE)
        if number and not number_slot(canvas, box.right, base, fonts.NARROW, FOOTER_SIZE,
                                     self.page_suffix(page)):
            pen.text(box.right, base, number, size=FOOTER_SIZE, narrow=True, align="right")
        if self.rule:
            ry = base + (len(texts) - 1) * FOOTER_STEP + 2.9 * MM
            canvas.setLineWidth(0.5)
            canvas.line(box.x, ry, box.right, ry)
        title = self.heading if heading is None else heading
        baseline = box.top - self.heading_drop
        if title:
            pen.text(box.x, baseline, title, size=self.heading_size, bold=True,
                     width=box.width * 0.55)
        if self.running:
            pen.text(box.right, baseline, branding.running(self.running), size=7.5,
                     narrow=True, align="right",
                     width=box.width * 0.43)
        canvas.restoreState()


def finish_page(canvas: Canvas, box: SafeBox, furniture: Furniture, page: int,
                heading: str | None = None) -> None:
    """Draw a page's furniture and end the page (the one way pages end)."""
    furniture.draw(canvas, box, page, heading)
    canvas.showPage()
