"""Where the bundled data lives, installed or in a source checkout."""

from __future__ import annotations

import functools
from importlib import resources
from pathlib import Path


@functools.cache
def bundled_dir(package: str, folder: str) -> Path:
    """Folder of a bundled data package.

    Args:
        package: The data package's import name (``quarterdeck_shipdata``).
        folder: Its folder at the top of a source checkout (``shipdata``).

    Returns:
        The installed package's folder, or the checkout's folder when not installed.

    """
    try:
        return Path(str(resources.files(package)))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parents[2] / folder
