"""A rendered component and its bookmarks: what the page engine makes and packets place.

They live with the pages (not with the packets that assemble them) so that every layer
that draws a component (pages, pieces, aids, the rulesets) imports downwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Bookmark:
    """An outline entry inside a component.

    Attributes:
        title: What the reader sees in the bookmarks pane.
        page: 0-based page within the component.
        top: Vertical position (points from the page bottom) to jump to, or None.
        children: Nested entries.

    """

    title: str
    page: int
    top: float | None = None
    children: list[Bookmark] = field(default_factory=list)


@dataclass
class Component:
    """One rendered component (a PDF of one or more pages) ready to be placed in packets.

    Attributes:
        key: Stable id, e.g. ``sheets:allied``.
        title: Top-level bookmark title.
        label: Page-label prefix, e.g. ``Ships-``.
        pdf: The component's PDF bytes.
        pages: Page count.
        bookmarks: Entries nested under the component's own bookmark.

    """

    key: str
    title: str
    label: str
    pdf: bytes
    pages: int
    bookmarks: list[Bookmark] = field(default_factory=list)
    recto: bool = False
    """Old name of ``two_sided`` (kept for components written before it)."""
    two_sided: bool = False
    """Pages are fronts and backs of sheets: starts on a right-hand (odd) page."""
    cut_out: bool = False
    """Pages are cut up: each sheet carries nothing else on its back."""
    inventory: list[dict[str, int]] = field(default_factory=list)
    """For cut-out sheets: each front page's pieces (title to copies), page by page, so a
    club can check a cut kit sheet by sheet."""
    drawn: list[str] = field(default_factory=list)
    """In a build, the names of the component's pages on the build's canvas
    (``generator.pages.kitdoc``); ``pdf`` is then empty."""

    def __post_init__(self) -> None:
        self.two_sided = self.two_sided or self.recto
        self.recto = self.two_sided
