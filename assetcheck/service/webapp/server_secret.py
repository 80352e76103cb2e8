"""The server's secret key: signs dashboard session cookies and per-job badge links.

``[server] secret_key`` in config wins. Without it, a random key is created once in
``data_dir/server_secret`` (mode 0600, in a data_dir of mode 0700) and read from there
afterwards, so sessions and badge links survive restarts, and nodes sharing the storage folder
share the key. It also keys the sealing of webhook secrets
(``assetcheck.service.webhooks.secret_box``).
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from assetcheck.config.settings import Config
from assetcheck.service.private_files import create_private_file, private_folder, tighten_file

SECRET_FILE = "server_secret"
MIN_CONFIGURED_LENGTH = 32


def load_server_secret(config: Config) -> str:
    """``[server] secret_key``, or the one stored under ``[storage] data_dir`` (created on
    first use).

    A configured secret shorter than 32 characters is refused with a ``ValueError``.
    """
    configured = config.server.secret_key
    if configured:
        if len(configured) < MIN_CONFIGURED_LENGTH:
            raise ValueError(
                f"[server] secret_key must be at least {MIN_CONFIGURED_LENGTH} characters long"
            )
        return configured
    folder = private_folder(config.storage.data_dir)
    path = folder / SECRET_FILE
    if not path.exists():
        _create(path)
    tighten_file(path)
    return _read(path)


def _create(path: Path) -> None:
    """Make ``path`` hold a new random key, whole or not at all: the key is written and synced
    under a name of this process's own, then linked into place. Another node or process reading
    ``path`` meanwhile finds it missing or whole, never empty; when two create it at once, the
    first link wins and both read its key."""
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = create_private_file(draft)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(secrets.token_urlsafe(48))
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):  # another one's key is there: it wins
            os.link(draft, path)
    finally:
        draft.unlink()


def _read(path: Path) -> str:
    secret = path.read_text().strip()
    if len(secret) < MIN_CONFIGURED_LENGTH:  # not made by this module: edited, or truncated
        raise ValueError(f"{path} holds no usable secret: delete it to have a new one made")
    return secret
