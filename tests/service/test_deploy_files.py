"""The files of ``deploy/`` (docs/deploy.md) cannot rot: every AssetCheck command they run is
parsed by the real command-line parser, every ``ASSETCHECK_*`` variable names a real key, the
configuration loads, stops wait longer than the workers' grace, the proxy points at the API
nodes, and the alerts read metrics the service exports. Docker and systemd cannot run here:
these tests read the files; nothing starts them."""

from __future__ import annotations

import configparser
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from assetcheck.cli import build_parser
from assetcheck.config.loading import load_config
from assetcheck.config.settings import Config
from assetcheck.reports.failures import JOB_FAILURES
from assetcheck.service.api import handlers as api
from assetcheck.service.jobs.gauges import JobGauges
from assetcheck.service.jobs.supervisor import EXIT_MARGIN
from assetcheck.service.observability.metrics import ServiceMetrics
from assetcheck.service.observability.node_gauges import WorkerProcesses

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
CONFIG_IN_CONTAINER = "/etc/assetcheck/assetcheck.toml"
UNITS = sorted((DEPLOY / "systemd").glob("*.service"))
#: What each kind of Prometheus metric adds to its name in the samples.
SAMPLE_SUFFIXES = {
    "counter": ("_total",),
    "histogram": ("_bucket", "_count", "_sum"),
    "gauge": ("",),
}


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


@pytest.fixture(scope="module")
def config() -> Config:
    return load_config(DEPLOY / "assetcheck.toml", environ={})


def assetcheck_services(compose: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: service
        for name, service in compose["services"].items()
        if service.get("command", [""])[0] == "assetcheck"
    }


def parse_command(argv: list[str]):
    """``argv`` (after ``assetcheck``) parsed by the real parser: an unknown command, option
    or value exits, failing the test."""
    command = next(arg for arg in argv if not arg.startswith("-"))
    return build_parser(command).parse_args(argv)


def test_the_deploy_configuration_loads_with_metrics_and_json_logs(config):
    assert config.metrics.enabled is True
    assert config.logging.format == "json"
    assert config.metrics.token == ""  # the token comes from the environment
    assert config.storage.backend == "s3" and config.storage.bucket


def test_compose_runs_real_commands_with_the_mounted_configuration(compose):
    services = assetcheck_services(compose)
    assert {"api-1", "api-2", "worker", "migrate"} <= set(services)
    commands = {}
    for name, service in services.items():
        args = parse_command(service["command"][1:])
        commands[name] = args.command
        assert args.config == CONFIG_IN_CONTAINER
        assert any(
            volume.startswith("./assetcheck.toml:" + CONFIG_IN_CONTAINER)
            for volume in service["volumes"]
        )
    assert commands == {"api-1": "serve", "api-2": "serve", "worker": "worker", "migrate": "db"}
    for service in ("proxy", "postgres", "minio", "prometheus"):
        assert service in compose["services"]


def test_compose_sets_only_real_configuration_keys(compose, config):
    keys = {
        f"ASSETCHECK_{section}_{key}".upper()
        for section, table in config.tables.items()
        if isinstance(table, dict)
        for key in table
    }
    for name, service in assetcheck_services(compose).items():
        variables = {v for v in service["environment"] if v.startswith("ASSETCHECK_")}
        assert variables <= keys, name
        assert {"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"} <= set(service["environment"])


def test_api_nodes_serve_http_only_and_workers_scale(compose):
    services = assetcheck_services(compose)
    for name in ("api-1", "api-2"):
        assert services[name]["environment"]["ASSETCHECK_WORKERS_PROCESSES"] == "0"
        assert parse_command(services[name]["command"][1:]).port == 8080
    assert services["worker"]["deploy"]["replicas"] >= 2
    assert services["migrate"]["restart"] == "no"
    for name in ("api-1", "api-2", "worker"):
        assert services[name]["depends_on"]["migrate"] == {
            "condition": "service_completed_successfully"
        }


def test_every_node_runs_the_image_built_from_this_repository(compose):
    dockerfile = DEPLOY / "Dockerfile"
    for name, service in assetcheck_services(compose).items():
        build = service["build"]
        assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == dockerfile, name
    text = dockerfile.read_text()
    assert "pip install --no-cache-dir /src" in text
    program, *argv = json.loads(re.search(r"^CMD (\[.*\])$", text, re.MULTILINE)[1])
    assert program == "assetcheck"
    assert parse_command(argv).config == CONFIG_IN_CONTAINER


def test_containers_stop_after_the_workers_grace(compose, config):
    needed = config.workers.shutdown_grace + EXIT_MARGIN
    for name, service in assetcheck_services(compose).items():
        assert service["init"] is True, name  # the signal goes to assetcheck, not its children
        assert int(service["stop_grace_period"].removesuffix("s")) > needed, name


@pytest.mark.parametrize("unit_path", UNITS, ids=[unit.name for unit in UNITS])
def test_systemd_units_run_real_commands_and_stop_gracefully(unit_path, config):
    unit = configparser.ConfigParser(interpolation=None, strict=False)
    unit.optionxform = str  # systemd keys are case-sensitive
    unit.read_string(unit_path.read_text())
    service = unit["Service"]
    program, *argv = shlex.split(service["ExecStart"])
    assert program.endswith("/bin/assetcheck")
    args = parse_command(argv)
    assert args.config == CONFIG_IN_CONTAINER
    assert service["EnvironmentFile"] == "/etc/assetcheck/assetcheck.env"
    if service["Type"] != "oneshot":
        assert service["KillMode"] == "mixed"  # SIGTERM to assetcheck alone
        assert int(service["TimeoutStopSec"]) > config.workers.shutdown_grace + EXIT_MARGIN


def test_the_units_match_the_compose_services(compose):
    in_units = {}
    for unit_path in UNITS:
        line = re.search(r"^ExecStart=\S+ (.*)$", unit_path.read_text(), re.MULTILINE)[1]
        in_units[unit_path.stem] = shlex.split(line)
    in_compose = {
        name: service["command"][1:] for name, service in assetcheck_services(compose).items()
    }
    assert in_units == {
        "assetcheck-api": in_compose["api-1"],
        "assetcheck-worker": in_compose["worker"],
        "assetcheck-db-upgrade": in_compose["migrate"],
    }


def test_the_proxy_balances_the_api_nodes_and_hides_metrics(compose):
    caddyfile = (DEPLOY / "caddy" / "Caddyfile").read_text()
    upstreams = re.search(r"reverse_proxy ([^{\n]+)\{", caddyfile)[1].split()
    services = assetcheck_services(compose)
    for upstream in upstreams:
        name, port = upstream.split(":")
        assert parse_command(services[name]["command"][1:]).port == int(port)
    assert sorted(n.split(":")[0] for n in upstreams) == ["api-1", "api-2"]
    assert re.search(r"@metrics path /metrics\b", caddyfile)
    assert "respond @metrics 404" in caddyfile
    assert re.search(r"health_uri /readyz\b", caddyfile)


def test_prometheus_scrapes_every_node_where_it_serves_metrics(compose, config):
    prometheus = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in prometheus["scrape_configs"]}
    api_targets = jobs["assetcheck-api"]["static_configs"][0]["targets"]
    assert api_targets == ["api-1:8080", "api-2:8080"]
    [workers] = jobs["assetcheck-worker"]["dns_sd_configs"]
    assert workers["names"] == ["worker"] and workers["port"] == config.metrics.port
    for job in jobs.values():
        assert job["authorization"]["credentials_file"] == "/etc/prometheus/metrics-token"


def exported_sample_names() -> set[str]:
    families = [
        family
        for collector in ServiceMetrics.create().collectors()
        for family in collector.describe()
    ]
    families += [*JobGauges().collect(), *WorkerProcesses(lambda: 0, 0).collect()]
    return {family.name + suffix for family in families for suffix in SAMPLE_SUFFIXES[family.type]}


def test_alerts_read_only_metrics_routes_and_codes_the_service_has(database):
    rules = [
        rule
        for group in yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())["groups"]
        for rule in group["rules"]
    ]
    exported = exported_sample_names()
    routes = {pattern.removesuffix("$") for pattern, *_ in api.default_handlers}
    assert len(rules) >= 8
    for rule in rules:
        expression = rule["expr"]
        assert set(re.findall(r"\bassetcheck_[a-z_]+", expression)) <= exported, rule["alert"]
        assert set(re.findall(r'route="([^"]+)"', expression)) <= routes, rule["alert"]
        for alternatives in re.findall(r'code=~?"([^"]+)"', expression):
            assert set(alternatives.split("|")) <= set(JOB_FAILURES), rule["alert"]
