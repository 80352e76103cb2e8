from pathlib import Path

import pytest

from assetcheck.config import DEFAULTS, ConfigError, load_config
from assetcheck.scoring.profiles import BUDGET_NAMES


def test_defaults_follow_the_design():
    config = load_config(environ={})
    assert config["webhooks"]["retry_delays"] == [0, 60, 300, 1800, 7200]
    assert config["webhooks"]["timeout"] == 10


def test_file_overrides_defaults_and_environment_overrides_file(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('[server]\nport = 9000\nhost = "0.0.0.0"\n[plans.pro]\nmax_upload_mb = 7\n')
    config = load_config(
        path,
        environ={"ASSETCHECK_SERVER_PORT": "9100", "ASSETCHECK_PLANS_PRO_REQUESTS_PER_MINUTE": "5"},
    )
    assert (config["server"]["host"], config["server"]["port"]) == ("0.0.0.0", 9100)
    pro = config["plans"]["pro"]
    assert (pro["max_upload_mb"], pro["requests_per_minute"], pro["max_queued_jobs"]) == (7, 5, 200)


def test_environment_values_are_typed_like_toml():
    config = load_config(
        environ={
            "ASSETCHECK_WEBHOOKS_RETRY_DELAYS": "[0, 1, 2]",
            "ASSETCHECK_STORAGE_DATA_DIR": "/srv/data",
        }
    )
    assert config["webhooks"]["retry_delays"] == [0, 1, 2]
    assert config["storage"]["data_dir"] == "/srv/data"


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
    server = load_config(environ={})["server"]
    assert server["max_body_kb"] == 1024
    assert (
        server["header_timeout"],
        server["body_timeout"],
        server["idle_timeout"],
        server["upload_timeout"],
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
    assert config["naming"] == {"mesh": "SM_.*"}
    assert config["studio_rules"] == {"level": 1, "max_size": 2048}
    assert config["studio_textures"] == {"max_size": 512}


def test_environment_adds_no_key_to_a_built_in_section():
    config = load_config(environ={"ASSETCHECK_SERVER_PROT": "1", "ASSETCHECK_VENV": ".venv"})
    assert "prot" not in config["server"] and "venv" not in config.data


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
    loaded = load_config(example, environ={}).data
    # Its relative data_dir is read from its own folder, like every file's.
    assert loaded["storage"]["data_dir"] == str(example.parent / DEFAULTS["storage"]["data_dir"])
    assert {**loaded, "storage": DEFAULTS["storage"]} == DEFAULTS
    text = example.read_text()
    assert [name for name in sorted(BUDGET_NAMES) if name not in text] == []
