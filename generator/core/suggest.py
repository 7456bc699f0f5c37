"""'Did you mean ...' hints, shared by every validator and the CLI."""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable
from typing import Any


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """Return ``"; did you mean 'x'?"`` for the closest choice, or "" if none is close.

    Args:
        word: What the user wrote.
        choices: The valid spellings.

    Returns:
        A hint to append to a message, possibly empty.

    """
    options = list(choices)
    folded = {c.casefold(): c for c in options}
    if word.casefold() in folded:
        return f"; did you mean '{folded[word.casefold()]}'?"
    # The start of a long id ("savo" for "savo-island") is too short a part of it for
    # difflib's ratio, but it is what people type: one choice it begins is the answer.
    starts = sorted(c for c in options if len(word) >= 3 and c.casefold().startswith(
        word.casefold()))
    if len(starts) == 1:
        return f"; did you mean '{starts[0]}'?"
    close = difflib.get_close_matches(word, options, n=1, cutoff=0.6)
    if not close:
        close_folded = difflib.get_close_matches(word.casefold(), list(folded), n=1, cutoff=0.6)
        close = [folded[c] for c in close_folded]
    if not close and starts:  # several ids begin so: name the first, not nothing
        close = starts
    return f"; did you mean '{close[0]}'?" if close else ""


def fold(name: str) -> str:
    """Compare names without case or accents: 'Chōkai' == 'chokai'."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def spellings(ships: Iterable[Any]) -> list[frozenset[str]]:
    """For each ship (``name``, ``aka``) of a class, the folded names that find it.

    A name two ships of a class share finds the first, as ``roster.find_ship`` does.
    """
    taken: set[str] = set()
    out = []
    for ship in ships:
        own = {fold(ship.name), *(fold(a) for a in ship.aka)} - taken
        taken |= own
        out.append(frozenset(own))
    return out
