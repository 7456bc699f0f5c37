"""Images named by data files (a class's own marker art): kept inside the data folder.

A data file may name a PNG or SVG next to it. The path is resolved against the file's
folder and must stay inside the data folder the file was loaded from (no ``..`` or
symbolic link out of it), and the image must be small enough to print quickly.
"""

from __future__ import annotations

from pathlib import Path

MAX_BYTES = 2 * 1024 * 1024
MAX_PIXELS = 4096


def check_image(data_file: Path, root: Path | None, relative: str) -> tuple[Path | None, str]:
    """Resolve and check an image path named in a data file.

    Args:
        data_file: The YAML file naming the image.
        root: The data folder it was loaded from.
        relative: The path as written, relative to the YAML file's folder.

    Returns:
        The resolved path and "" when usable, else None and what is wrong, phrased
        as ``expected ...`` for a located message.

    """
    base = (root or data_file.parent).resolve()
    path = (data_file.parent / relative).resolve()
    if not path.is_relative_to(base):
        return None, "expected a path inside the data folder"
    if not path.is_file():
        return None, "expected an existing PNG or SVG file next to the class file"
    size = path.stat().st_size
    if size > MAX_BYTES:
        return None, f"expected an image of at most 2 MB (it has {size / 1e6:.1f} MB)"
    if path.suffix.lower() == ".png":
        from PIL import Image, UnidentifiedImageError

        try:
            with Image.open(path) as image:
                width, height = image.size
                image.verify()
        except (UnidentifiedImageError, OSError, SyntaxError):
            return None, "expected a readable PNG image"
        if width > MAX_PIXELS or height > MAX_PIXELS:
            return None, f"expected at most {MAX_PIXELS} px a side (it is {width} x {height})"
    else:
        head = path.read_bytes().lower()
        if b"<svg" not in head:
            return None, "expected an SVG image (no <svg> element found)"
        if b"<!entity" in head or b"<!doctype" in head:
            return None, "expected an SVG without DOCTYPE or ENTITY declarations"
    return path, ""
