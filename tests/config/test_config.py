import pickle
import re
from pathlib import Path

import pytest

from assetcheck.config.defaults import DEFAULTS
from assetcheck.config.loading import config_from, load_config
from assetcheck.config.validation import EngineSettings
from assetcheck.config.values import ConfigError
from assetcheck.daemon.location import NO_DAEMON_VARIABLE
from assetcheck.scoring.profiles import BUDGET_NAMES


def test_defaults_follow_the_design():
    config = load_config(environ={})
    assert config.webhooks.retry_delays == (0, 60, 300, 1800, 7200)
    assert config.webhooks.timeout == 10


def test_file_overrides_defaults_and_environment_overrides_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[server]\nport = 9000\nhost = "0.0.0.0"\n[plans.pro]\nmax_upload_mb = 7\n')
    config = load_config(
        path,
        environ={"ASSETCHECK_SERVER_PORT": "9100", "ASSETCHECK_PLANS_PRO_REQUESTS_PER_MINUTE": "5"},
    )
    assert (config.server.host, config.server.port) == ("0.0.0.0", 9100)
    pro = config.plans["pro"]
    assert (pro.max_upload_mb, pro.requests_per_minute, pro.max_queued_jobs) == (7, 5, 200)


def test_environment_values_are_typed_like_toml():
    config = load_config(
        environ={
            "ASSETCHECK_WEBHOOKS_RETRY_DELAYS": "[0, 1, 2]",
            "ASSETCHECK_STORAGE_DATA_DIR": "/srv/data",
        }
    )
    assert config.webhooks.retry_delays == (0, 1, 2)
    assert config.storage.data_dir == Path("/srv/data")


def test_engine_section_sets_issue_policy(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[engines.web]\nignore = ["A_CODE"]\n[engines.web.severity]\nB_CODE = "info"\n')
    options = load_config(path, environ={}).validation_options("web")
    assert options.engine == "web"
    assert options.policy.ignore == {"A_CODE"}
    assert options.policy.severity_overrides == {"B_CODE": "info"}


def test_unreadable_or_invalid_file_is_a_clear_error(tmp_path):
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml", environ={})
    bad = tmp_path / "bad.toml"
    bad.write_text("[server\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad, environ={})


def test_table_replaced_by_a_value_is_rejected(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("server = 5\n")
    with pytest.raises(ConfigError, match="server must be a table"):
        load_config(path, environ={})


def test_server_limits_default_to_a_small_body_and_short_timeouts():
    server = load_config(environ={}).server
    assert server.max_body_kb == 1024
    assert (
        server.header_timeout,
        server.body_timeout,
        server.idle_timeout,
        server.upload_timeout,
    ) == (20, 60, 30, 3600)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("max_body_kb", "0"),
        ("max_body_kb", "1.5"),
        ("header_timeout", "0"),
        ("idle_timeout", "-1"),
        ("body_timeout", "true"),
        ("upload_timeout", "soon"),
    ],
)
def test_unusable_server_limits_are_refused(key, value):
    with pytest.raises(ConfigError, match=f"server.{key}"):
        load_config(environ={f"ASSETCHECK_SERVER_{key.upper()}": value})


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("max_derived_ratio", "-1"),
        ("max_derived_ratio", "nan"),
        ("derived_allowance_mb", "true"),
        ("derived_allowance_mb", "lots"),
    ],
)
def test_unusable_bounds_on_what_jobs_store_are_refused(key, value):
    with pytest.raises(ConfigError, match=f"storage.{key}"):
        load_config(environ={f"ASSETCHECK_STORAGE_{key.upper()}": value})


def test_environment_sets_a_plugin_key_the_file_does_not_have(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text("[studio_rules]\nlevel = 1\n")
    config = load_config(
        path,
        environ={
            "ASSETCHECK_NAMING_MESH": "SM_.*",
            "ASSETCHECK_STUDIO_RULES_MAX_SIZE": "2048",
            "ASSETCHECK_STUDIO_TEXTURES__MAX_SIZE": "512",
        },
    )
    assert config.tables["naming"] == {"mesh": "SM_.*"}
    assert config.tables["studio_rules"] == {"level": 1, "max_size": 2048}
    assert config.tables["studio_textures"] == {"max_size": 512}


def test_environment_adds_no_key_to_a_built_in_section():
    config = load_config(environ={"ASSETCHECK_SERVER_PROT": "1", "ASSETCHECK_VENV": ".venv"})
    assert "prot" not in config.tables["server"] and "venv" not in config.tables


def test_the_variables_of_other_uses_are_no_plugin_keys():
    config = load_config(environ={NO_DAEMON_VARIABLE: "1", "ASSETCHECK_URL": "http://x"})
    assert "no" not in config.tables and "url" not in config.tables


def test_relative_plugins_dir_is_read_from_the_config_files_folder(tmp_path, monkeypatch):
    folder = tmp_path / "conf"
    folder.mkdir()
    (folder / "c.toml").write_text('[plugins]\ndir = "rules"\n')
    monkeypatch.chdir(tmp_path)
    assert load_config(folder / "c.toml", environ={}).plugin_config().dir == folder / "rules"


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('disabled = "naming"', "plugins.disabled must be a list"),
        ("crash = true", "plugins.crash must be one of 'warning', 'error'"),
        ("dir = 3", "plugins.dir must be a folder path"),
    ],
)
def test_unusable_plugins_table_is_a_config_error(tmp_path, table, message):
    path = tmp_path / "c.toml"
    path.write_text(f"[plugins]\n{table}\n")
    with pytest.raises(ConfigError, match=message):
        load_config(path, environ={})


def test_the_example_config_is_the_defaults_and_names_every_budget_key():
    example = Path(__file__).resolve().parents[2] / "config.example.toml"
    loaded = load_config(example, environ={}).tables
    # Its relative data_dir is read from its own folder, like every file's.
    assert loaded["storage"]["data_dir"] == str(example.parent / DEFAULTS["storage"]["data_dir"])
    assert {**loaded, "storage": DEFAULTS["storage"]} == DEFAULTS
    text = example.read_text()
    assert [name for name in sorted(BUDGET_NAMES) if name not in text] == []


def field_names(section) -> list[str]:
    return list(section._fields)


def test_every_default_key_has_a_typed_field_and_every_field_a_default():
    config = load_config(environ={})
    sections = [name for name in field_names(config) if name not in ("tables", "source")]
    assert sections == list(DEFAULTS)
    for name, table in DEFAULTS.items():
        if name == "plans":
            for plan, limits in table.items():
                assert field_names(config.plans[plan]) == list(limits), plan
        elif name != "engines":  # a table of engine profiles, each free-form
            assert field_names(getattr(config, name)) == list(table), name
    assert field_names(EngineSettings) == ["ignore", "severity", "budgets"]


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("SERVER_PORT", "70000", "server.port must be a port number"),
        ("SERVER_SECURE_COOKIES", "1", "server.secure_cookies must be true or false"),
        ("WORKERS_PROCESSES", "-1", "workers.processes must be a whole number, 0 or more"),
        ("WORKERS_JOB_TIMEOUT", "0", "workers.job_timeout must be a number of seconds over 0"),
        ("WORKERS_MEMORY_LIMIT_MB", "1.5", "workers.memory_limit_mb must be a whole number"),
        ("WEBHOOKS_KEEP_DELIVERIES_DAYS", "-1", "webhooks.keep_deliveries_days must be a number"),
        ("PLANS_PRO_REQUESTS_PER_MINUTE", "0", "plans.pro.requests_per_minute must be a whole"),
        ("ACCOUNTS_MAX_ACTIVE_KEYS", "many", "accounts.max_active_keys must be a whole number"),
        ("VALIDATION_MAX_ISSUES", "lots", "validation.max_issues must be a whole number"),
        ("VALIDATION_MAX_COMPRESSION_RATIO", "0", "validation.max_compression_ratio must be"),
        ("METRICS_HOST", "[1]", "metrics.host must be a string"),
    ],
)
def test_a_value_of_the_wrong_type_or_range_is_refused_as_the_config_loads(
    variable, value, message
):
    with pytest.raises(ConfigError, match=f"^config key {re.escape(message)}"):
        load_config(environ={f"ASSETCHECK_{variable}": value})


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ("[engines]\nweb = 5\n", "engines.web must be a table"),
        ('[engines.web]\nignore = "A_CODE"\n', "engines.web.ignore must be a list of issue codes"),
        ("[engines.web]\nseverity = 3\n", "engines.web.severity must be a table"),
        ("[plans]\nstudio = 5\n", "plans.studio must be a table"),
        ("[plans.studio]\nmax_upload_mb = 10\n", "plans.studio.requests_per_minute is missing"),
    ],
)
def test_unusable_engine_and_plan_tables_are_refused_as_the_config_loads(tmp_path, table, message):
    path = tmp_path / "c.toml"
    path.write_text(table)
    with pytest.raises(ConfigError, match=re.escape(message)):
        load_config(path, environ={})


def test_a_plan_of_the_files_own_may_leave_out_retention_and_quota(tmp_path):
    path = tmp_path / "c.toml"
    limits = {"max_upload_mb": 10, "requests_per_minute": 5, "max_processing_jobs": 1}
    limits |= {"max_queued_jobs": 2, "page_renders_per_minute": 3}
    path.write_text("[plans.studio]\n" + "".join(f"{k} = {v}\n" for k, v in limits.items()))
    studio = load_config(path, environ={}).plans["studio"]
    assert (studio.max_upload_mb, studio.retention_days, studio.max_storage_mb) == (10, 0, 0)


@pytest.mark.parametrize(
    ("storage", "message"),
    [('backend = "gcs"', "not one of local, s3"), ('backend = "s3"', "needs a bucket")],
)
def test_an_unknown_storage_backend_or_a_bucketless_s3_is_refused_as_the_config_loads(
    tmp_path, storage, message
):
    path = tmp_path / "c.toml"
    path.write_text(f"[storage]\n{storage}\n")
    with pytest.raises(ConfigError, match=message):
        load_config(path, environ={})


def test_the_settings_can_be_sent_to_a_spawned_worker_process():
    config = config_from({"engines": {"web": {"ignore": ["A_CODE"]}}}, environ={})
    assert pickle.loads(pickle.dumps(config)) == config
    assert pickle.loads(pickle.dumps(config)).engines["web"].ignore == {"A_CODE"}


def test_the_operations_guide_names_every_key_under_its_table():
    guide = (Path(__file__).resolve().parents[2] / "docs" / "operations.md").read_text()
    paragraph = guide.split("The keys: ", 1)[1].split("\n\n", 1)[0]
    for section, table in DEFAULTS.items():
        header = f"[{section}.<name>]" if section in ("plans", "engines") else f"[{section}]"
        keys = table["free"] if section == "plans" else table
        assert header in paragraph, section
        assert [key for key in keys if not re.search(rf"\b{key}\b", paragraph)] == [], section
