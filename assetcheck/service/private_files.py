"""Files only the service's own user may read (``docs/security.md``, Data at rest).

``data_dir`` holds uploads, reports, the server secret and the SQLite database (password
hashes, sealed webhook secrets), so it and everything the service creates under it are
owner-only whatever the umask: folders 0700, files 0600. Folders and files made by an older
version are tightened when the service opens them.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

FOLDER_MODE = 0o700
FILE_MODE = 0o600


def private_folder(path: str | Path) -> Path:
    """``path`` as an existing folder of mode 0700: created if missing (its missing parents
    too, with the usual modes: they are not the service's), tightened if it was looser."""
    folder = Path(path)
    folder.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    _tighten(folder, FOLDER_MODE)
    return folder


def private_subfolder(path: str | Path) -> Path:
    """A new folder of mode 0700 inside an existing one; ``FileExistsError`` if it exists."""
    folder = Path(path)
    folder.mkdir(mode=FOLDER_MODE)
    _tighten(folder, FOLDER_MODE)  # mkdir's mode passes through the umask
    return folder


def create_private_file(path: str | Path, *, exclusive: bool = True) -> int:
    """Open ``path`` for writing as a file of mode 0600; returns the descriptor.

    ``exclusive`` refuses an existing file (``FileExistsError``); otherwise an existing file
    is opened as it is (not truncated) and tightened.
    """
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if exclusive else 0) | getattr(os, "O_CLOEXEC", 0)
    descriptor = os.open(path, flags, FILE_MODE)
    with contextlib.suppress(OSError):
        os.fchmod(descriptor, FILE_MODE)
    return descriptor


def tighten_file(path: str | Path) -> None:
    """Make an existing file 0600; a missing file is left missing."""
    _tighten(Path(path), FILE_MODE)


def _tighten(path: Path, mode: int) -> None:
    """chmod ``path`` to ``mode`` when its mode differs; nothing when it is gone or not ours
    (the operator then keeps the modes they chose)."""
    with contextlib.suppress(FileNotFoundError, PermissionError):
        if path.stat().st_mode & 0o777 != mode:
            path.chmod(mode)
