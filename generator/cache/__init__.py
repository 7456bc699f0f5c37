"""The cache layer, beside the others: the user cache (keyed, signed and optional).

It may import ``core``; every shared layer may import it, a ruleset never does (whether
a bundled table is cached is decided by ``data.validation.load_model``). The one way in
is ``keyed``: ``key`` makes every key (always with the version and the code's stamp) and
``remember`` reads a value back or makes and keeps it. ``usercache`` is the signed
storage underneath, called from nowhere else.
"""

from generator.cache.keyed import (
    Key,
    Shape,
    keep,
    key,
    recall,
    remember,
    slot,
    text_list,
    text_map,
)
from generator.cache.usercache import code_stamp

__all__ = ["Key", "Shape", "code_stamp", "keep", "key", "recall", "remember", "slot",
           "text_list", "text_map"]
