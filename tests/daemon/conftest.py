"""A real ``assetcheck daemon`` for the tests, started as a user starts it, in a private folder
of its own, and stopped (and waited for) after each test."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from assetcheck.cli.daemon_command import ask
from assetcheck.daemon.location import NO_DAEMON_VARIABLE, SOCKET_VARIABLE

SCRIPT = Path(sys.executable).with_name("assetcheck")


@dataclass
class Assetcheck:
    """Runs the ``assetcheck`` program with the test's daemon socket in its environment."""

    socket: Path
    env: dict[str, str]

    def run(self, *args: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess:
        return subprocess.run(
            [SCRIPT, *map(str, args)], capture_output=True, env=self.env, cwd=cwd, timeout=300
        )

    def status(self) -> dict[str, Any]:
        """The daemon's answer to ``status`` (what ``daemon status`` prints)."""
        answer = ask(self.socket, "status")
        assert answer is not None, "no daemon answers"
        return answer

    def served(self) -> int:
        """How many commands the daemon has run."""
        return int(self.status()["served"])


@contextlib.contextmanager
def program() -> Iterator[Assetcheck]:
    """The program, with a socket in a new private folder (short: socket paths are limited to
    107 bytes) and no daemon yet."""
    folder = Path(tempfile.mkdtemp(prefix="acd-"))
    env = {**os.environ, SOCKET_VARIABLE: str(folder / "run" / "daemon.sock")}
    env.pop(NO_DAEMON_VARIABLE, None)
    try:
        yield Assetcheck(folder / "run" / "daemon.sock", env)
    finally:
        shutil.rmtree(folder)


@contextlib.contextmanager
def running(assetcheck: Assetcheck) -> Iterator[Assetcheck]:
    """``assetcheck daemon start`` done; stopped, and gone, on the way out."""
    started = assetcheck.run("daemon", "start")
    assert started.returncode == 0, started.stderr.decode()
    pid = assetcheck.status()["pid"]
    try:
        yield assetcheck
    finally:
        assert wait_for_exit(pid, lambda: assetcheck.run("daemon", "stop"))


@pytest.fixture
def assetcheck() -> Iterator[Assetcheck]:
    with program() as assetcheck:
        yield assetcheck


@pytest.fixture
def daemon(assetcheck: Assetcheck) -> Iterator[Assetcheck]:
    with running(assetcheck) as daemon:
        yield daemon


@pytest.fixture(scope="module")
def shared_daemon() -> Iterator[Assetcheck]:
    """One daemon for a module's tests that only count what they asked of it."""
    with program() as assetcheck, running(assetcheck) as daemon:
        yield daemon


def wait_for_exit(
    pid: int, stop: Callable[[], object] | None = None, timeout: float = 60.0
) -> bool:
    """Call ``stop`` (if given), then wait until the process ``pid`` (not a child of ours)
    has exited; whether it did within ``timeout``."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        if stop is not None:
            stop()
        readable, _, _ = select.select([pidfd], [], [], timeout)
        return bool(readable)
    finally:
        os.close(pidfd)
