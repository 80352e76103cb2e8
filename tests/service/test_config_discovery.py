"""Every command finds the same configuration, and so the same database, wherever it runs:
``--config``, ``$ASSETCHECK_CONFIG``, ``./assetcheck.toml``, the user's configuration folder."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import requests

from assetcheck.config.loading import find_config_file, load_config
from tests.service.harness import (
    ServiceProcess,
    assetcheck_command,
    bearer,
    service_settings,
    write_config,
)


def run_elsewhere(folder: Path, *args: str, **variables: str) -> subprocess.CompletedProcess:
    """``assetcheck ARGS`` run from ``folder`` with only these ``ASSETCHECK_``/XDG variables."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith("ASSETCHECK_") and k != "XDG_CONFIG_HOME"
    }
    env.update(variables)
    folder.mkdir(parents=True, exist_ok=True)
    return subprocess.run(
        assetcheck_command(*args), cwd=folder, env=env, capture_output=True, text=True, timeout=60
    )


def test_the_file_is_found_by_option_variable_current_folder_then_user_folder(tmp_path):
    here, user = tmp_path / "here", tmp_path / "xdg"
    (user / "assetcheck").mkdir(parents=True)
    here.mkdir()
    user_file = user / "assetcheck" / "assetcheck.toml"
    user_file.write_text("")
    environ = {"XDG_CONFIG_HOME": str(user)}
    assert find_config_file(None, environ, here) == user_file
    (here / "assetcheck.toml").write_text("")
    assert find_config_file(None, environ, here) == here / "assetcheck.toml"
    named = {**environ, "ASSETCHECK_CONFIG": str(tmp_path / "named.toml")}
    assert find_config_file(None, named, here) == tmp_path / "named.toml"
    assert find_config_file("given.toml", named, here) == Path("given.toml")
    assert (
        find_config_file(None, {"XDG_CONFIG_HOME": str(tmp_path / "none")}, tmp_path / "empty")
        is None
    )


def test_relative_paths_are_read_from_the_files_folder(tmp_path):
    path = tmp_path / "conf" / "assetcheck.toml"
    path.parent.mkdir()
    path.write_text(
        '[storage]\ndata_dir = "state"\n[plugins]\ndir = "rules"\n'
        '[database]\nurl = "sqlite:///db/jobs.sqlite"\n'
    )
    config = load_config(path, environ={})
    assert config.storage.data_dir == tmp_path / "conf" / "state"
    assert config.plugins.dir == tmp_path / "conf" / "rules"
    assert config.database.url == f"sqlite:///{tmp_path}/conf/db/jobs.sqlite"
    assert config.source == path
    absolute = load_config(path, environ={"ASSETCHECK_STORAGE_DATA_DIR": "/srv/assets"})
    assert absolute.storage.data_dir == Path("/srv/assets")
    assert load_config(environ={}).storage.data_dir == Path("./data")


def test_submit_reads_its_key_from_the_environment_never_into_the_configuration():
    config = load_config(
        environ={"ASSETCHECK_API_KEY": "svc_" + "k" * 32, "ASSETCHECK_URL": "http://127.0.0.1:1"}
    )
    assert "api" not in config.tables and "url" not in config.tables


def test_a_key_made_from_another_folder_works_on_the_server(tmp_path):
    """The new user's path: the server runs on a configuration with a relative data_dir; the
    operator makes the account and key from elsewhere, naming the file by the variable or
    finding it in the user's folder, and the key is accepted."""
    settings = service_settings(tmp_path, "", storage={"data_dir": "state"})
    config_path = write_config(tmp_path, settings)
    server = ServiceProcess(config_path).start()
    try:
        variable = {"ASSETCHECK_CONFIG": str(config_path)}
        created = run_elsewhere(
            tmp_path / "elsewhere",
            "accounts",
            "create",
            "a@example.com",
            "--plan",
            "pro",
            **variable,
        )
        assert created.returncode == 0, created.stderr
        assert f"database SQLite {tmp_path}/state/assetcheck.db" in created.stderr
        assert f"configuration {config_path}" in created.stderr
        user = tmp_path / "xdg"
        (user / "assetcheck").mkdir(parents=True)
        (user / "assetcheck" / "assetcheck.toml").write_text(
            f'[storage]\ndata_dir = "{tmp_path}/state"\n'
        )
        for variables in (variable, {"XDG_CONFIG_HOME": str(user)}):
            made = run_elsewhere(
                tmp_path / "elsewhere", "keys", "create", "a@example.com", **variables
            )
            assert made.returncode == 0, made.stderr
            answer = requests.get(
                f"{server.url}/api/v1/engines", headers=bearer(made.stdout.strip()), timeout=10
            )
            assert answer.status_code == 200
        assert f"configuration {user}/assetcheck/assetcheck.toml" in made.stderr
        assert not (tmp_path / "elsewhere" / "data").exists()
    finally:
        server.stop()


def test_without_any_configuration_the_database_is_the_current_folders_and_it_says_so(tmp_path):
    done = run_elsewhere(
        tmp_path / "fresh",
        "accounts",
        "create",
        "n@example.com",
        "--plan",
        "pro",
        XDG_CONFIG_HOME=str(tmp_path / "no-user-config"),
    )
    assert done.returncode == 0, done.stderr
    assert f"database SQLite {tmp_path}/fresh/data/assetcheck.db" in done.stderr
    assert "no configuration file" in done.stderr


def test_a_server_without_workers_warns_that_uploads_will_wait(tmp_path):
    config_path = write_config(tmp_path, service_settings(tmp_path, "", workers={"processes": 0}))
    server = ServiceProcess(config_path).start()
    try:
        assert "WARNING" in server.log() and "processes = 0" in server.log()
        assert "accepts uploads but validates none" in server.log()
    finally:
        server.stop()
