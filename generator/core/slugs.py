"""Ids made from titles: the one spelling the kit inventory and its tokens share."""

from __future__ import annotations

import re


def slug(text: str) -> str:
    """Lower case words joined by hyphens, for ids made from titles and keys."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"
