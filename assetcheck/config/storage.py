"""``[storage]`` and ``[database]``: where jobs keep their files, and which database holds
the accounts and jobs (``docs/operations.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from assetcheck.config.values import ConfigError, Table

#: ``[storage] backend`` values (``service.jobs.storage``).
BACKENDS = ("local", "s3")


class StorageSettings(NamedTuple):
    """``[storage]``: the data folder, the job files' back-end (``"local"``: under
    ``data_dir``; ``"s3"``: a bucket, which it then names) and the bound on what a job stores
    beside its upload: ``max_derived_ratio`` times its size plus ``derived_allowance_mb``."""

    data_dir: Path
    backend: str
    bucket: str
    prefix: str
    endpoint_url: str
    region: str
    max_derived_ratio: float
    derived_allowance_mb: float

    @classmethod
    def read(cls, table: Table) -> StorageSettings:
        backend = table.get("backend")
        if backend not in BACKENDS:
            raise ConfigError(
                f"[storage] backend = {backend!r} is not one of {', '.join(BACKENDS)}"
            )
        bucket = table.text("bucket")
        if backend == "s3" and not bucket:
            raise ConfigError('[storage] backend = "s3" needs a bucket')
        return cls(
            data_dir=Path(table.text("data_dir")),
            backend=backend,
            bucket=bucket,
            prefix=table.text("prefix"),
            endpoint_url=table.text("endpoint_url"),
            region=table.text("region"),
            max_derived_ratio=table.number("max_derived_ratio"),
            derived_allowance_mb=table.number("derived_allowance_mb"),
        )


class DatabaseSettings(NamedTuple):
    """``[database]``: the database's URL; empty for SQLite under ``data_dir``. Which URLs
    work is for ``service.db`` to say, as it opens one."""

    url: str

    @classmethod
    def read(cls, table: Table) -> DatabaseSettings:
        return cls(url=table.text("url"))
