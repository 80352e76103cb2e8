"""Data at rest (``docs/security.md``): ``data_dir`` and everything the service writes under it
is owner-only whatever the umask, and a validation's temporary files stay in its job's folder
and are gone when the validation is, even when it was killed."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from assetcheck.config.loading import load_config
from assetcheck.service import db
from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.db.tables import Job
from assetcheck.service.jobs.storage import SCRATCH_NAME
from assetcheck.testing.shapes import pawn_glb
from tests.service.harness import (
    ServiceProcess,
    bind_database,
    service_settings,
    upload,
    wait_for_job,
    write_config,
)

#: A check that, on files named ``killme...``, writes a temporary file (as the FBX reader does
#: for ZIP members), notes its path, and dies by SIGKILL before it can remove it.
TEMPORARY_FILE_PLUGIN = """
import os, signal, tempfile
from assetcheck.checks import Check
from assetcheck.plugins.hookspecs import hookimpl

def run(asset, context):
    if asset.filename.startswith("killme"):
        handle, name = tempfile.mkstemp(prefix="assetcheck-", suffix=".fbx")
        os.write(handle, b"upload content")
        with open({log!r}, "a") as log:
            log.write(name + "\\n")
        os.kill(os.getpid(), signal.SIGKILL)

@hookimpl
def register_checks():
    return [Check("test_temporary_file", "writes a temporary file, then dies", run)]
"""


@pytest.fixture
def usual_umask() -> Iterator[None]:
    """The umask most systems give services (022): files 0644 and folders 0755 unless the
    service says otherwise."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


@pytest.fixture
def sqlite_server(tmp_path: Path, usual_umask: None, glb: bytes) -> Iterator[ServiceProcess]:
    """A server of this test's own on SQLite under ``tmp_path / "data"``, with the temporary
    file plugin."""
    settings = service_settings(tmp_path, "")
    (tmp_path / "plugins" / "temporary_file.py").write_text(
        TEMPORARY_FILE_PLUGIN.format(log=str(tmp_path / "temporary-files.log"))
    )
    server = ServiceProcess(write_config(tmp_path, settings)).start()
    yield server
    server.stop()


def test_everything_the_service_writes_under_data_dir_is_owner_only(sqlite_server):
    bind_database(sqlite_server.config)
    key = issue_key(create_account("modes@example.com", "pro", ["pro"]), "test")[1]
    job_id = upload(sqlite_server.url, key, pawn_glb()).json()["job_id"]
    assert wait_for_job(sqlite_server.url, key, job_id)["status"] == "completed"

    data_dir = sqlite_server.config.storage.data_dir
    found = {
        path.relative_to(data_dir).as_posix(): stat.S_IMODE(path.stat().st_mode)
        for path in [data_dir, *data_dir.rglob("*")]
    }
    for expected in (
        "assetcheck.db",
        "assetcheck.db-wal",
        "assetcheck.db-shm",
        "server_secret",
        f"jobs/{job_id}/upload",
    ):
        assert expected in found
    assert any(name.endswith(".png") for name in found), "no preview was drawn"
    loose = {
        name: oct(mode)
        for name, mode in found.items()
        if mode != (0o700 if (data_dir / name).is_dir() else 0o600)
    }
    assert loose == {}


def test_an_older_data_dir_and_database_are_tightened_when_opened(tmp_path, usual_umask):
    data_dir = tmp_path / "data"
    data_dir.mkdir(mode=0o755)
    for name in ("assetcheck.db", "assetcheck.db-wal"):
        (data_dir / name).touch(mode=0o644)
    database = db.open_database(load_config(write_config(tmp_path, service_settings(tmp_path, ""))))
    database.close()
    assert stat.S_IMODE(data_dir.stat().st_mode) == 0o700
    assert {
        stat.S_IMODE((data_dir / name).stat().st_mode)
        for name in ("assetcheck.db", "assetcheck.db-wal")
    } == {0o600}


def test_a_killed_validation_leaves_no_temporary_file_behind(sqlite_server, glb, tmp_path):
    bind_database(sqlite_server.config)
    key = issue_key(create_account("tmp@example.com", "pro", ["pro"]), "test")[1]
    job_id = upload(sqlite_server.url, key, glb, filename="killme.glb").json()["job_id"]
    body = wait_for_job(sqlite_server.url, key, job_id)
    assert body["status"] == "failed" and Job.get_by_id(job_id).attempts == 3

    written = (tmp_path / "temporary-files.log").read_text().split()
    scratch = sqlite_server.config.storage.data_dir / "jobs" / job_id / SCRATCH_NAME
    assert len(written) == 3
    assert all(Path(name).parent == scratch for name in written)
    assert not any(Path(name).exists() for name in written) and not scratch.exists()
