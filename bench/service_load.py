"""Load on the HTTP service: submit latency under concurrent uploads, job throughput, and the
server's memory while one very large upload streams in.

    python bench/service_load.py                       # SQLite under a temporary data_dir
    python bench/service_load.py --database-url postgresql://postgres@127.0.0.1:5432/bench
    python bench/service_load.py --storage s3          # the local directory, then object storage

It starts ``assetcheck serve`` on 127.0.0.1 (a free port) with ``--workers`` worker processes,
then: ``--clients`` concurrent clients each upload ``--uploads`` GLBs of ``--upload-mb`` MB (or
the ``--model`` file)
while the workers validate them (submit latency p50/p99, jobs completed per second); then one
client streams a ``--big-mb`` MB upload while the server's RSS is sampled every 50 ms.
Targets (issue 6): submit p99 under 100 ms; server RSS under 200 MB during the 1 GB upload.
The PostgreSQL database must exist and be empty (or at the current schema).

With ``--storage s3`` the same load runs twice, first with the local directory (the
reference), then with ``[storage] backend = "s3"`` against moto's S3 server, started here on
127.0.0.1 (``pip install -e .[test]``); a table of both and their ratios ends the run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import boto3
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest

from assetcheck.config.loading import load_config
from assetcheck.service import db
from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.db.tables import Job
from assetcheck.testing.gltf import padded_glb

BOUNDARY = "assetcheck-bench"
MIB = 1 << 20
POLL_SECONDS = 1.0


def multipart_parts(filename: str) -> tuple[bytes, bytes]:
    head = (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; '
        f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'
    ).encode()
    return head, f"\r\n--{BOUNDARY}--\r\n".encode()


def upload_request(url: str, key: str, body: bytes | None = None, **kwargs) -> HTTPRequest:
    return HTTPRequest(
        f"{url}/api/v1/validate",
        method="POST",
        body=body,
        headers={
            "Authorization": f"Bearer {key}",
            "Content-Type": f"multipart/form-data; boundary={BOUNDARY}",
        },
        request_timeout=3600,
        **kwargs,
    )


async def submit_load(
    url: str, key: str, clients: int, uploads: int, content: bytes, *, wait_for_each: bool
) -> list[float]:
    """Each client uploads ``uploads`` files, one at a time; every submit's seconds.

    With ``wait_for_each`` a client polls its job until it is done before the next upload,
    as a pipeline does, and the clients start spread over the first poll interval rather than
    all in the same millisecond; without it, clients upload back to back from the start (the
    server's saturation).
    """
    client = AsyncHTTPClient(max_clients=clients, force_instance=True)
    head, tail = multipart_parts("load.glb")
    body = head + content + tail
    headers = {"Authorization": f"Bearer {key}"}
    latencies: list[float] = []

    async def one_client() -> None:
        if wait_for_each:
            await asyncio.sleep(random.uniform(0, POLL_SECONDS))
        for _ in range(uploads):
            started = time.perf_counter()
            response = await client.fetch(upload_request(url, key, body))
            latencies.append(time.perf_counter() - started)
            status_url = url + json.loads(response.body)["status_url"]
            while wait_for_each:
                await asyncio.sleep(POLL_SECONDS)
                status = await client.fetch(status_url, headers=headers)
                if json.loads(status.body)["status"] in ("completed", "failed"):
                    break

    await asyncio.gather(*(one_client() for _ in range(clients)))
    client.close()
    return latencies


async def stream_big_upload(url: str, key: str, size: int) -> float:
    """Upload a ``size``-byte GLB without holding it in memory; the seconds it took."""
    header = struct.pack("<4sII", b"glTF", 2, size)  # a GLB header, then zeros
    head, tail = multipart_parts("big.glb")
    block = b"\0" * MIB

    async def produce(write) -> None:
        await write(head + header)
        remaining = size - len(header)
        while remaining > 0:
            await write(block[: min(remaining, len(block))])
            remaining -= len(block)
        await write(tail)

    request = upload_request(url, key, body_producer=produce)
    length = len(head) + size + len(tail)
    request.headers["Content-Length"] = str(length)
    client = AsyncHTTPClient(force_instance=True, max_body_size=size + MIB)
    started = time.perf_counter()
    try:
        response = await client.fetch(request)
    except HTTPClientError as error:
        raise SystemExit(f"the big upload was refused: {error.response.body!r}") from None
    assert response.code == 202
    client.close()
    return time.perf_counter() - started


def percentiles(seconds: list[float]) -> str:
    cuts = statistics.quantiles(seconds, n=100)
    return (
        f"p50 {cuts[49] * 1000:.1f} ms, p99 {cuts[98] * 1000:.1f} ms, "
        f"max {max(seconds) * 1000:.1f} ms"
    )


def rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status)[1]) / 1024


class RssSampler(threading.Thread):
    """The largest RSS of process ``pid`` seen while running."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.peak = 0.0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.05):
            self.peak = max(self.peak, rss_mb(self.pid))


def start_server(
    folder: Path, database_url: str, workers: int, extra_config: str = "", storage_keys: str = ""
) -> tuple[subprocess.Popen, str]:
    """``assetcheck serve`` on ``folder/bench.toml`` (``extra_config`` appended to it, TOML
    tables; ``storage_keys`` added to its ``[storage]`` table): the process and its URL."""
    config = folder / "bench.toml"
    config.write_text(
        f'[storage]\ndata_dir = "{folder / "data"}"\n{storage_keys}'
        f'[database]\nurl = "{database_url}"\n'
        f"[workers]\nprocesses = {workers}\n"
        "[plans.enterprise]\nmax_upload_mb = 4096\nrequests_per_minute = 1000000\n" + extra_config
    )
    log = folder / "serve.log"
    command = [
        sys.executable,
        "-c",
        "import sys; from assetcheck.cli import main; sys.exit(main())",
        "serve",
        "--config",
        str(config),
        "--port",
        "0",
    ]
    server = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.search(r"listening on (http://127\.0\.0\.1:\d+)", log.read_text())
        if found:
            return server, found[1]
        time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()}")


def server_submit_times(log: Path, skip: int) -> list[float]:
    """Seconds the server spent on each accepted upload (Tornado's access log), from the
    ``skip``-th on: the submit latency without the client's own delays."""
    times = re.findall(r"202 POST /api/v1/validate \(127\.0\.0\.1\) ([\d.]+)ms", log.read_text())
    return [float(ms) / 1000 for ms in times[skip:]]


def start_s3_server() -> tuple[object, str]:
    """moto's S3 server on a free loopback port, a bucket on it, and the ``[storage]`` table
    that uses it. Credentials are moto's dummies, set in this process for the server child."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per S3 request
    os.environ.update(
        AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_DEFAULT_REGION="us-east-1"
    )
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    endpoint = f"http://{host}:{port}"
    boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1").create_bucket(
        Bucket="assetcheck-bench"
    )
    return server, (
        f'backend = "s3"\nbucket = "assetcheck-bench"\nprefix = "bench/"\n'
        f'endpoint_url = "{endpoint}"\nregion = "us-east-1"\n'
    )


def wait_for_jobs(count: int, timeout: float = 600) -> float:
    """Wait until ``count`` jobs completed; the time it happened."""
    deadline = time.monotonic() + timeout
    while Job.select().where(Job.status == "completed").count() < count:
        if time.monotonic() > deadline:
            raise SystemExit("jobs did not complete in time")
        time.sleep(0.1)
    return time.perf_counter()


def run_load(args: argparse.Namespace, label: str, storage_keys: str = "") -> dict:
    """One run of the load on a fresh server; prints it and returns its headline figures."""
    folder = Path(tempfile.mkdtemp(prefix="assetcheck-bench-"))
    server, url = start_server(folder, args.database_url, args.workers, storage_keys=storage_keys)
    figures: dict[str, float] = {}
    try:
        db.connect(load_config(folder / "bench.toml"))
        account = create_account(f"bench-{label}@example.com", "enterprise", ["enterprise"])
        key = issue_key(account)[1]
        done = Job.select().where(Job.status == "completed").count()  # a reused database

        if args.model is None:
            content, what = padded_glb(int(args.upload_mb * MIB)), f"{args.upload_mb:g} MB"
        else:
            content, what = args.model.read_bytes(), args.model.name
        print(
            f"[{label}] {args.clients} clients x {args.uploads} uploads of "
            f"{what}, {args.workers} workers, "
            f"{'PostgreSQL' if args.database_url else 'SQLite'}"
        )
        accepted = 0
        for name, wait_for_each in (("pipeline", True), ("saturation", False)):
            started = time.perf_counter()
            latencies = asyncio.run(
                submit_load(
                    url, key, args.clients, args.uploads, content, wait_for_each=wait_for_each
                )
            )
            submitted = time.perf_counter()
            accepted += len(latencies)
            finished = wait_for_jobs(done + accepted)
            print(f"  {name} ({'upload, poll until done' if wait_for_each else 'back to back'}):")
            print(f"    submit latency seen by clients: {percentiles(latencies)}")
            server_side = server_submit_times(folder / "serve.log", accepted - len(latencies))
            print(f"    submit time in the server:      {percentiles(server_side)}")
            jobs_per_second = len(latencies) / (finished - started)
            print(
                f"    submits per second: {len(latencies) / (submitted - started):.1f}; "
                f"jobs completed per second: {jobs_per_second:.1f}"
            )
            cuts = statistics.quantiles(latencies, n=100)
            figures.update(
                {
                    f"{name} submit p50 ms": cuts[49] * 1000,
                    f"{name} submit p99 ms": cuts[98] * 1000,
                    f"{name} jobs/s": jobs_per_second,
                }
            )

        baseline = rss_mb(server.pid)
        sampler = RssSampler(server.pid)
        sampler.start()
        seconds = asyncio.run(stream_big_upload(url, key, args.big_mb * MIB))
        sampler.done.set()
        sampler.join()
        print(
            f"  {args.big_mb} MB upload streamed in {seconds:.1f} s "
            f"({args.big_mb / seconds:.0f} MB/s)"
        )
        print(f"    server RSS: {baseline:.0f} MB before, peak {sampler.peak:.0f} MB during")
        figures.update(
            {"big upload MB/s": args.big_mb / seconds, "big upload peak RSS MB": sampler.peak}
        )
    finally:
        server.terminate()
        server.wait(60)
        shutil.rmtree(folder, ignore_errors=True)
    return figures


def print_comparison(local: dict, s3: dict) -> None:
    print(f"\n{'':32}{'local':>10}{'s3':>10}{'s3/local':>10}")
    for name, reference in local.items():
        print(f"{name:32}{reference:>10.1f}{s3[name]:>10.1f}{s3[name] / reference:>10.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--uploads", type=int, default=10, help="uploads per client")
    parser.add_argument("--upload-mb", type=float, default=1.0)
    parser.add_argument(
        "--model",
        type=Path,
        help="upload this model file instead of --upload-mb of a GLB without meshes (whose "
        "job draws no preview): what a job costs end to end on real content",
    )
    parser.add_argument("--big-mb", type=int, default=1024)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--database-url", default="")
    parser.add_argument(
        "--storage",
        choices=("local", "s3"),
        default="local",
        help="s3: run with the local directory, then with moto's S3 server",
    )
    args = parser.parse_args()

    local = run_load(args, "local")
    if args.storage == "s3":
        s3_server, storage_config = start_s3_server()
        try:
            s3 = run_load(args, "s3", storage_config)
        finally:
            s3_server.stop()
        print_comparison(local, s3)


if __name__ == "__main__":
    main()
