"""Prometheus metrics (docs/operations.md, Metrics): a real ``assetcheck serve`` whose worker
processes ran real jobs, and an ``assetcheck worker`` node, scraped over HTTP and read with the
client's own parser."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families

from assetcheck.testing.zip import tiny_glb
from tests.service.harness import (
    ServiceProcess,
    bearer,
    bind_database,
    upload,
    wait_for_job,
    wait_until,
)
from tests.service.webhooks.harness import make_customer

TOKEN = "metrics-token-" + "x" * 20
WORKERS = 2


def scrape(url: str, token: str | None = TOKEN) -> dict[tuple[str, tuple], float]:
    """Every sample of ``url``'s /metrics: ``(name, sorted labels) -> value``."""
    answer = requests.get(f"{url}/metrics", headers=bearer(token), timeout=30)
    assert answer.status_code == 200, answer.text
    assert answer.headers["Content-Type"].startswith("text/plain")
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(answer.text)
        for sample in family.samples
    }


def value(samples: dict[tuple[str, tuple], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def metrics_service(local_config: Callable[..., Path]) -> Iterator[ServiceProcess]:
    config = local_config(metrics={"enabled": True, "token": TOKEN}, workers={"processes": WORKERS})
    server = ServiceProcess(config).start()
    yield server
    server.stop()


def test_a_scrape_after_real_jobs_reports_jobs_failures_webhooks_http_and_workers(
    metrics_service, receiver
):
    bind_database(metrics_service.config)
    customer = make_customer(metrics_service.config, url=receiver.url)
    url = metrics_service.url
    completed = upload(url, customer.key, tiny_glb()).json()["job_id"]
    crashed = upload(url, customer.key, tiny_glb(), filename="crash.glb").json()["job_id"]
    assert wait_for_job(url, customer.key, completed)["status"] == "completed"
    assert wait_for_job(url, customer.key, crashed)["status"] == "failed"
    assert wait_until(lambda: len(receiver.requests) == 2)  # both webhooks delivered

    samples = wait_until(
        lambda: (
            (found := scrape(url))
            and value(found, "assetcheck_webhook_attempts_total", outcome="delivered") == 2
            and found
        )
    )
    assert value(samples, "assetcheck_jobs", state="completed", plan="pro") == 1
    assert value(samples, "assetcheck_jobs", state="failed", plan="pro") == 1
    assert value(samples, "assetcheck_queue_depth") == 0
    assert value(samples, "assetcheck_queue_oldest_age_seconds") == 0
    assert value(samples, "assetcheck_job_failures_total", code="VALIDATION_CRASHED") == 1
    assert (
        value(
            samples,
            "assetcheck_validation_duration_seconds_count",
            format="glb",
            outcome="completed",
        )
        == 1
    )
    assert (
        value(
            samples, "assetcheck_validation_duration_seconds_count", format="glb", outcome="crashed"
        )
        == 3
    )  # three attempts, then failed
    assert value(samples, "assetcheck_worker_processes") == WORKERS
    assert value(samples, "assetcheck_worker_processes_wanted") == WORKERS
    submits = value(
        samples,
        "assetcheck_http_requests_total",
        route="/api/v1/validate",
        method="POST",
        status="202",
    )
    assert submits == 2
    routes = {dict(labels).get("route") for _, labels in samples if dict(labels).get("route")}
    assert not any(completed in route or crashed in route for route in routes)  # patterns only
    assert any(route.startswith("/api/v1/validate/(") for route in routes)
    assert (
        value(samples, "assetcheck_http_request_duration_seconds_count", route="/api/v1/validate")
        == 2
    )


def test_the_queue_figures_come_from_the_database_when_jobs_wait(local_config, make_key):
    config = local_config(metrics={"enabled": True}, workers={"processes": 1})
    server = ServiceProcess(config).start()
    try:
        bind_database(server.config)
        key = make_key("pro")
        slow = upload(server.url, key, tiny_glb(), filename="slow-3.glb").json()["job_id"]
        waiting = upload(server.url, key, tiny_glb()).json()["job_id"]
        assert wait_for_job(server.url, key, slow, ("processing",))["status"] == "processing"
        samples = scrape(server.url, token=None)  # no token configured: open
        assert value(samples, "assetcheck_queue_depth") == 1
        assert value(samples, "assetcheck_queue_oldest_age_seconds") > 0
        assert value(samples, "assetcheck_jobs", state="processing", plan="pro") == 1
        assert wait_for_job(server.url, key, waiting)["status"] == "completed"
    finally:
        server.stop()


def test_metrics_need_their_own_token_never_an_api_key(metrics_service, make_key):
    url = f"{metrics_service.url}/metrics"
    bind_database(metrics_service.config)
    for headers in ({}, bearer(make_key("pro")), bearer(TOKEN + "x"), {"Authorization": TOKEN}):
        answer = requests.get(url, headers=headers, timeout=10)
        assert answer.status_code == 401
        assert answer.json()["code"] == "INVALID_METRICS_TOKEN"
        assert answer.headers["WWW-Authenticate"].startswith("Bearer")


def test_metrics_are_off_by_default(url):
    answer = requests.get(f"{url}/metrics", headers=bearer(TOKEN), timeout=10)
    assert answer.status_code == 404
    assert answer.json()["code"] == "NOT_FOUND"


def test_a_worker_node_serves_its_own_metrics(local_config, make_key):
    config = local_config(
        metrics={"enabled": True, "token": TOKEN, "port": 0}, workers={"processes": 1}
    )
    api = ServiceProcess(config).start()  # takes the upload; its worker is not needed
    worker = ServiceProcess(config, "--processes", "2", command="worker").start()
    try:
        listening = wait_until(
            lambda: re.search(r"metrics on (http://127\.0\.0\.1:\d+)/metrics", worker.log())
        )
        assert listening, worker.log()
        worker_url = listening[1]
        bind_database(api.config)
        key = make_key("pro")
        job_ids = [upload(api.url, key, tiny_glb()).json()["job_id"] for _ in range(4)]
        assert all(wait_for_job(api.url, key, job)["status"] == "completed" for job in job_ids)
        node = scrape(worker_url)
        cluster = scrape(api.url)
        assert value(node, "assetcheck_worker_processes") == 2
        assert "assetcheck_jobs" not in {name for name, _ in node}  # cluster figures: API nodes
        validations = sum(
            value(
                samples,
                "assetcheck_validation_duration_seconds_count",
                format="glb",
                outcome="completed",
            )
            for samples in (node, cluster)
        )
        assert validations == 4  # each node counts the validations its own workers ran
        assert value(cluster, "assetcheck_jobs", state="completed", plan="pro") == 4
        assert requests.get(f"{worker_url}/metrics", timeout=10).status_code == 401
        assert requests.get(f"{worker_url}/validate", timeout=10).status_code == 404
    finally:
        worker.stop()
        api.stop()
    assert "metrics-token" not in worker.log() + api.log()
