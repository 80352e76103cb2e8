"""Running the real service for tests: config files, ``assetcheck`` processes, uploads.

Every server listens on 127.0.0.1 on a port it picks itself (``--port 0``) and logs to a file
the tests read (to find the port, and to prove no key is ever logged).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import peewee
import requests

from assetcheck.config.loading import load_config
from assetcheck.config.settings import Config
from assetcheck.service import db
from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.db.tables import Account, Job, utcnow
from assetcheck.service.jobs.queue import COMPLETED, new_job_id
from tests.network_guard import GUARDED_MAIN

REPOSITORY = Path(__file__).resolve().parents[2]
STARTUP_TIMEOUT = 30.0
_LISTENING = re.compile(r"listening on (http://127\.0\.0\.1:\d+)")

#: A check plugin loaded from ``[plugins] dir``: files named ``slow-<seconds>...`` take that
#: long, ``held-...`` wait until the test releases them (:func:`release_held`), ``crash...``
#: kills the validation with SIGSEGV, ``frozen...`` write how many objects the validating
#: process inherited frozen (:func:`gc.get_freeze_count`) to ``frozen-count`` beside the log;
#: every run of the check is logged.
SLOW_CHECK_PLUGIN = """
import gc, os, re, signal, time
from assetcheck.checks import Check
from assetcheck.plugins.hookspecs import hookimpl

LOG = {log!r}

def _note(event, filename):
    with open(LOG, "a") as log:
        log.write(f"{{event}} {{filename}} {{os.getppid()}}\\n")

def run(asset, context):
    _note("start", asset.filename)
    slow = re.match(r"slow-(\\d+(?:\\.\\d+)?)", asset.filename)
    if slow:
        time.sleep(float(slow[1]))
    release = os.path.join(os.path.dirname(LOG), "release-" + asset.filename)
    while asset.filename.startswith("held-") and not os.path.exists(release):
        time.sleep(0.02)
    if asset.filename.startswith("crash"):
        os.kill(os.getpid(), signal.SIGSEGV)
    if asset.filename.startswith("frozen"):
        with open(os.path.join(os.path.dirname(LOG), "frozen-count"), "w") as count:
            count.write(str(gc.get_freeze_count()))
    _note("end", asset.filename)

@hookimpl
def register_checks():
    return [Check("test_timing", "sleeps or crashes on request, and logs each run", run)]
"""


def toml_text(data: Mapping[str, Any], prefix: str = "") -> str:
    """Nested plain data as TOML tables (enough for config files)."""
    scalars = {k: v for k, v in data.items() if not isinstance(v, Mapping)}
    tables = {k: v for k, v in data.items() if isinstance(v, Mapping)}
    lines = [f"[{prefix}]"] if prefix and scalars else []
    lines += [f"{key} = {_toml_value(value)}" for key, value in scalars.items()]
    text = "\n".join(lines) + "\n" if lines else ""
    for key, table in tables.items():
        text += toml_text(table, f"{prefix}.{key}" if prefix else key)
    return text


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return str(value)


def service_settings(folder: Path, database_url: str, **overrides: Any) -> dict[str, Any]:
    """Config for a test server: short leases, tiny starter-plan limits, and a job time limit
    (30 s) that the tests' small files meet even on a machine kept busy by other work."""
    plugins = folder / "plugins"
    plugins.mkdir(parents=True, exist_ok=True)
    (plugins / "test_timing.py").write_text(
        SLOW_CHECK_PLUGIN.format(log=str(folder / "checks.log"))
    )
    settings: dict[str, Any] = {
        "storage": {"data_dir": str(folder / "data")},
        "database": {"url": database_url},
        "workers": {"processes": 2, "lease_seconds": 2, "job_timeout": 30, "shutdown_grace": 5},
        "plans": {
            "starter": {"max_upload_mb": 1, "requests_per_minute": 3},
            "pro": {"max_upload_mb": 2, "requests_per_minute": 100_000},
        },
        "plugins": {"dir": str(plugins)},
        "webhooks": {"allowed_cidrs": ["127.0.0.1/32"]},
    }
    for section, values in overrides.items():
        settings.setdefault(section, {}).update(values)
    return settings


def write_config(folder: Path, settings: Mapping[str, Any]) -> Path:
    path = folder / "assetcheck.toml"
    path.write_text(toml_text(settings))
    return path


def assetcheck_command(*args: str) -> list[str]:
    """The ``assetcheck`` command line, run by this interpreter behind the tests' network guard
    (a server fuzzed with random webhook URLs must not reach off this machine either)."""
    return [sys.executable, "-c", GUARDED_MAIN, *args]


class ServiceProcess:
    """``assetcheck serve`` (or another long-running command) in a child process."""

    def __init__(self, config_path: Path, *args: str, command: str = "serve") -> None:
        self.config_path = config_path
        self.config: Config = load_config(config_path)
        self.log_path = config_path.parent / f"{command}-{time.monotonic_ns()}.log"
        self.args = [command, "--config", str(config_path), *args]
        if command == "serve":
            self.args += ["--port", "0"]
        self.process: subprocess.Popen | None = None
        self.url = ""

    def start(self) -> ServiceProcess:
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                assetcheck_command(*self.args),
                stdout=log,
                stderr=subprocess.STDOUT,
                env=_child_env(),
            )
        if self.args[0] == "serve":
            self.url = self._wait_for_listening()
        return self

    def _wait_for_listening(self) -> str:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            found = _LISTENING.search(self.log())
            if found:
                return found[1]
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"assetcheck serve exited:\n{self.log()}")
            time.sleep(0.05)
        raise RuntimeError(f"assetcheck serve did not start:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, then the exit status."""
        self.request_stop()
        assert self.process is not None
        return self.process.wait(timeout)

    def request_stop(self) -> None:
        """SIGTERM, without waiting for the process to end."""
        assert self.process is not None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait()


def _child_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ASSETCHECK_")}
    env["PYTHONUNBUFFERED"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPOSITORY), env.get("PYTHONPATH")]))
    return env


def bind_database(config: Config) -> peewee.Database:
    """Point this test process's tables at the database of ``config``."""
    return db.connect(config)


def new_key(config: Config) -> str:
    """The API key of a new account on the ``pro`` plan, in the database of ``config``."""
    bind_database(config)
    account = create_account(f"{new_job_id()}@example.com", "pro", list(config.plans))
    return issue_key(account)[1]


def upload(
    url: str,
    key: str | None,
    content: bytes,
    filename: str = "model.glb",
    options: str | None = None,
    **kwargs: Any,
) -> requests.Response:
    """POST /api/v1/validate with a ``file`` part (and an ``options`` part when given)."""
    files: dict[str, Any] = {"file": (filename, content, "application/octet-stream")}
    if options is not None:
        files["options"] = (None, options, "application/json")
    return requests.post(
        f"{url}/api/v1/validate", files=files, headers=bearer(key), timeout=30, **kwargs
    )


def bearer(key: str | None) -> dict[str, str]:
    return {} if key is None else {"Authorization": f"Bearer {key}"}


def wait_for_job(
    url: str,
    key: str,
    job_id: str,
    statuses: tuple[str, ...] = ("completed", "failed"),
    timeout: float = 90.0,
) -> dict[str, Any]:
    """Poll the job until its status is one of ``statuses``; its last body."""
    deadline = time.monotonic() + timeout
    while True:
        body = requests.get(
            f"{url}/api/v1/validate/{job_id}", headers=bearer(key), timeout=10
        ).json()
        if body["status"] in statuses or time.monotonic() > deadline:
            return body
        time.sleep(0.05)


def validate_on_own_service(
    config_path: Path, content: bytes, timeout: float
) -> tuple[ServiceProcess, dict[str, Any]]:
    """Start a service of its own on ``config_path``, upload ``content`` with a new key and
    wait for its job to end, then stop the service: the stopped service and the job's body."""
    server = ServiceProcess(config_path).start()
    try:
        key = new_key(server.config)
        job_id = upload(server.url, key, content).json()["job_id"]
        return server, wait_for_job(server.url, key, job_id, timeout=timeout)
    finally:
        server.stop()


def wait_until(condition: Any, timeout: float = 90.0, interval: float = 0.05) -> Any:
    """Call ``condition`` until it returns something truthy; that value (or the last one)."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(interval)


def stored_completed_job(account: Account, report: dict[str, Any], filename: str) -> Job:
    """A completed job row of ``account`` holding ``report``, as if a worker had ended it (no
    upload or previews are stored: for pages and reports read from the row alone)."""
    return Job.create(
        id=new_job_id(),
        account=account,
        status=COMPLETED,
        progress=100,
        filename=filename,
        engine="generic",
        stored_path="jobs/none/upload",
        sha256="0" * 64,
        size=1,
        result=report,
        health_score=97,
        grade="excellent",
        started_at=utcnow(),
        finished_at=utcnow(),
    )


def job_row(job_id: str) -> Job:
    return Job.get_by_id(job_id)


def release_held(folder: Path, filename: str) -> None:
    """Let the test check finish its run on the file ``filename`` (named ``held-...``) of the
    service whose settings were made in ``folder``."""
    (folder / f"release-{filename}").touch()


def check_runs(folder: Path) -> list[tuple[str, str, str]]:
    """``(event, filename, worker pid)`` for every run of the test check, in order."""
    path = folder / "checks.log"
    if not path.exists():
        return []
    runs = []
    # The last line may still be being written (a reader can see part of another process's
    # append): only lines that end are read.
    for line in path.read_text().split("\n")[:-1]:
        event, rest = line.split(" ", 1)
        filename, pid = rest.rsplit(" ", 1)
        runs.append((event, filename, pid))
    return runs


def connect(url: str) -> socket.socket:
    """A TCP connection to the server at ``url``, for requests a client library will not send
    (half-sent heads, stalled bodies); reads time out after 10 s."""
    parts = urlsplit(url)
    return socket.create_connection((parts.hostname, parts.port), timeout=10)


def read_response(sock: socket.socket) -> tuple[int, str, bytes]:
    """Status, headers and body of one HTTP response with a Content-Length."""
    data = b""
    deadline = time.monotonic() + 10
    while b"\r\n\r\n" not in data and time.monotonic() < deadline:
        received = sock.recv(65536)
        if not received:
            break
        data += received
    head, _, body = data.partition(b"\r\n\r\n")
    headers = head.decode("latin-1")
    length = int(re.search(r"(?i)content-length: (\d+)", headers)[1])
    while len(body) < length:
        received = sock.recv(65536)
        if not received:
            break
        body += received
    return int(headers.split(" ", 2)[1]), headers, body[:length]


def memory_kb(pid: int, field: str = "VmRSS") -> int:
    """A memory figure of process ``pid`` from ``/proc``: ``VmRSS`` (resident now) or
    ``VmHWM`` (the most it was ever resident), in KiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(rf"{field}:\s+(\d+) kB", status)[1])


def closed_by_server(sock: socket.socket, timeout: float = 30.0) -> bool:
    """Read and drop what ``sock`` receives until the server closes it (True), or until
    ``timeout`` seconds pass with the connection still open (False)."""
    sock.settimeout(timeout)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionResetError:
        pass
    return True
