"""Hostile load on the HTTP service: what clients the service has not accepted can cost it.

    python bench/hostile_load.py
    python bench/hostile_load.py --post-mb 400 --half-open 1000

It starts ``assetcheck serve`` on 127.0.0.1 (a free port, as ``bench/service_load.py`` does),
then runs each case of :data:`CASES` and prints its figures:

- ``--post-mb`` MB unauthenticated POSTs to ``/login``, ``/signup`` and ``/api/v1/validate``
  (no key), streamed from a generator with a ``Content-Length`` and chunked: the server's peak
  RSS during each (target: under 150 MB), how long until it answered, and what it answered;
- ``--half-open`` connections that each send part of a request head and stop: whether
  ``/healthz`` still answers and how fast, then how long until the server closed them
  (``[server] header_timeout``);
- six slow jobs of a free account and then a Pro account's job: when the Pro job started
  (``bench/fair_queue.py``, on a service of its own).

Targets and the rules behind them: ``docs/security.md``, Limits.
"""

from __future__ import annotations

import argparse
import secrets
import select
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from assetcheck.config.loading import load_config
from assetcheck.config.settings import Config
from assetcheck.service import db
from assetcheck.service.accounts.store import create_account, issue_key
from bench.fair_queue import measure_fairness
from bench.service_load import MIB, RssSampler, rss_mb, start_server

#: The server's peak RSS during one refused post should stay under this many MB.
PEAK_TARGET_MB = 150
ANSWER_TIMEOUT = 30.0
POST_PATHS = ("/login", "/signup", "/api/v1/validate")


@dataclass
class Bench:
    """The running server the cases share, and the options they were given."""

    url: str
    pid: int
    config: Config
    args: argparse.Namespace

    def key(self, plan: str = "pro") -> str:
        """A key of a new account on ``plan``, for cases that act as customers."""
        account = create_account(
            f"bench-{secrets.token_hex(6)}@example.com", plan, list(self.config.plans)
        )
        return issue_key(account, "hostile-load")[1]

    def connect(self) -> socket.socket:
        parts = urlsplit(self.url)
        return socket.create_connection((parts.hostname, parts.port), timeout=ANSWER_TIMEOUT)


@dataclass
class Refusal:
    """How the server answered one post: its status line (or why there was none), the seconds
    from the first byte sent to the answer, and the MB sent by then."""

    answer: str
    seconds: float
    sent_mb: float


class PeakMemory:
    """The server's peak RSS (MB) during a ``with`` block: its VmHWM, reset on entry where the
    kernel allows it (``/proc/<pid>/clear_refs``), and VmRSS sampled every 50 ms otherwise."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0.0
        self._sampler = RssSampler(pid)
        self._reset = False

    def __enter__(self) -> PeakMemory:
        try:
            Path(f"/proc/{self.pid}/clear_refs").write_text("5")
            self._reset = True
        except OSError:
            pass
        self._sampler.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._sampler.done.set()
        self._sampler.join()
        self.peak = max(self._sampler.peak, rss_mb(self.pid))
        if self._reset:
            self.peak = max(self.peak, _status_mb(self.pid, "VmHWM"))


def _status_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(field)


def blocks(total: int, size: int = MIB) -> Iterator[bytes]:
    """``total`` bytes of form data, one ``size`` block at a time: never all in memory."""
    block = b"a" * size
    for start in range(0, total, size):
        yield block[: min(size, total - start)]


def post_streamed(bench: Bench, path: str, total: int, *, chunked: bool) -> Refusal:
    """POST ``total`` bytes to ``path`` without a key or cookie, stopping as soon as the server
    answers (or closes); how it was refused."""
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {urlsplit(bench.url).netloc}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\n{framing}\r\n\r\n"
    ).encode()
    sent = 0
    with bench.connect() as sock:
        started = time.perf_counter()
        sock.sendall(head)
        try:
            for block in blocks(total):
                if _readable(sock):
                    break  # the server answered (or closed): stop sending
                sock.sendall(f"{len(block):x}\r\n".encode() + block + b"\r\n" if chunked else block)
                sent += len(block)
            else:
                if chunked:
                    sock.sendall(b"0\r\n\r\n")  # the whole body was sent: end it
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = _status_line(sock)
        seconds = time.perf_counter() - started
    return Refusal(answer, seconds, sent / MIB)


def _readable(sock: socket.socket) -> bool:
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def _status_line(sock: socket.socket) -> str:
    """The first line the server sent, or what happened instead."""
    data = b""
    try:
        while b"\r\n" not in data:
            received = sock.recv(4096)
            if not received:
                break
            data += received
    except ConnectionResetError:
        pass
    except TimeoutError:
        return f"no answer within {ANSWER_TIMEOUT:g} s"
    line = data.split(b"\r\n", 1)[0].decode("latin-1")
    return line or "connection closed without an answer"


def large_unauthenticated_posts(bench: Bench) -> None:
    """A large POST to each page that takes one before login, declared and chunked."""
    total = bench.args.post_mb * MIB
    print(
        f"{bench.args.post_mb} MB unauthenticated POSTs (target: server peak RSS under "
        f"{PEAK_TARGET_MB} MB)"
    )
    for path in POST_PATHS:
        for chunked in (False, True):
            before = rss_mb(bench.pid)
            with PeakMemory(bench.pid) as memory:
                refusal = post_streamed(bench, path, total, chunked=chunked)
            framing = "chunked" if chunked else "Content-Length"
            verdict = "ok" if memory.peak < PEAK_TARGET_MB else "OVER TARGET"
            print(
                f"  {path:<18} {framing:<14} {refusal.answer!r}: after "
                f"{refusal.seconds * 1000:.1f} ms, {refusal.sent_mb:.1f} MB sent; "
                f"server RSS {before:.0f} MB before, peak {memory.peak:.0f} MB ({verdict})"
            )


def half_open_connections(bench: Bench) -> None:
    """Many connections that send part of a request head and stop, then a health check."""
    count = bench.args.half_open
    partial = f"GET /healthz HTTP/1.1\r\nHost: {urlsplit(bench.url).netloc}\r\nX-Slow: ".encode()
    hanging = []
    opened = time.perf_counter()
    for _ in range(count):
        sock = bench.connect()
        sock.sendall(partial)
        hanging.append(sock)
    print(
        f"{count} half-open connections (part of a request head each), opened in "
        f"{time.perf_counter() - opened:.1f} s"
    )
    try:
        with bench.connect() as sock:
            started = time.perf_counter()
            sock.sendall(
                f"GET /healthz HTTP/1.1\r\nHost: {urlsplit(bench.url).netloc}\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            answer = _status_line(sock)
        print(
            f"  /healthz meanwhile: {answer!r} in {(time.perf_counter() - started) * 1000:.1f} ms"
        )
        closed, seconds = _wait_until_closed(hanging, bench.config.server.header_timeout)
        print(
            f"  closed by the server: {closed} of {count}, the last after {seconds:.1f} s "
            f"([server] header_timeout = {bench.config.server.header_timeout} s)"
        )
    finally:
        for sock in hanging:
            sock.close()


def _wait_until_closed(sockets: list[socket.socket], timeout: float) -> tuple[int, float]:
    """Wait up to twice ``timeout`` (plus a margin) for the server to close ``sockets``; how
    many it closed, and the seconds until the last of them."""
    poller = select.poll()  # not select(): descriptors beyond 1024
    waiting = {sock.fileno(): sock for sock in sockets}
    for descriptor in waiting:
        poller.register(descriptor, select.POLLIN)
    started = time.perf_counter()
    last = 0.0
    deadline = started + 2 * timeout + 10
    while waiting and time.perf_counter() < deadline:
        for descriptor, _ in poller.poll(500):
            try:
                ended = not waiting[descriptor].recv(4096)
            except ConnectionResetError:
                ended = True
            if ended:
                poller.unregister(descriptor)
                del waiting[descriptor]
                last = time.perf_counter() - started
    return len(sockets) - len(waiting), last


def free_backlog_and_a_pro_job(bench: Bench) -> None:
    """Six slow jobs of a free account, then one Pro job, on two workers of a service of its
    own (``bench/fair_queue.py``): when the Pro job started."""
    figures = measure_fairness(bench.args.database_url)
    print(
        f"fairness ({figures['database']}, {figures['workers']} workers): the pro job started "
        f"{figures['pro_start_rank']}. of {figures['free_jobs'] + 1}, after "
        f"{figures['free_jobs_started_before_pro']} free job(s), "
        f"{figures['pro_wait_seconds']} s after its upload; done after "
        f"{figures['pro_turnaround_seconds']} s"
    )


#: The cases, run in order against one server. Each takes the :class:`Bench` and prints its
#: own figures.
CASES: list[Callable[[Bench], None]] = [
    large_unauthenticated_posts,
    half_open_connections,
    free_backlog_and_a_pro_job,
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--post-mb", type=int, default=400)
    parser.add_argument("--half-open", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--database-url", default="")
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp(prefix="assetcheck-hostile-"))
    server, url = start_server(folder, args.database_url, args.workers)
    try:
        config = load_config(folder / "bench.toml")
        db.connect(config)
        bench = Bench(url=url, pid=server.pid, config=config, args=args)
        print(f"server {url}, pid {server.pid}, RSS {rss_mb(server.pid):.0f} MB at start")
        for case in CASES:
            case(bench)
    finally:
        server.terminate()
        server.wait(60)
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
