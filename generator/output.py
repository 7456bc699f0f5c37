"""Writing results: temp file then rename, never half a file; manifest with hashes."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path

from generator.errors import OutputError


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename.

    Args:
        path: Destination.
        data: Bytes to write.

    Raises:
        OutputError: When the folder cannot be created or written.

    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
            # mkstemp creates 0600 files; give the result the user's normal permissions.
            os.chmod(tmp, 0o666 & ~_umask())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from exc


def write_kit(folder: Path, files: dict[str, bytes], pages: dict[str, int],
              extra: dict[str, object]) -> Path:
    """Write every file of a kit, then its ``manifest.json``.

    Args:
        folder: The kit's output folder.
        files: File name to content.
        pages: File name to page count.
        extra: Additional manifest fields (scenario, paper, version...).

    Returns:
        The manifest's path.

    """
    entries = []
    for name in sorted(files):
        write_atomic(folder / name, files[name])
        entries.append({"file": name, "pages": pages.get(name, 0), "bytes": len(files[name]),
                        "sha256": hashlib.sha256(files[name]).hexdigest()})
    manifest = {**extra, "files": entries}
    path = folder / "manifest.json"
    write_atomic(path, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode())
    return path
