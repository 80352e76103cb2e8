import multiprocessing
import stat

import pytest

from assetcheck.config.loading import load_config
from assetcheck.service.webapp.server_secret import SECRET_FILE, load_server_secret


def config_for(tmp_path, secret_key=""):
    return load_config(
        environ={
            "ASSETCHECK_STORAGE_DATA_DIR": str(tmp_path),
            "ASSETCHECK_SERVER_SECRET_KEY": secret_key,
        }
    )


def test_secret_is_made_once_private_and_kept(tmp_path):
    first = load_server_secret(config_for(tmp_path))
    assert len(first) >= 32
    assert load_server_secret(config_for(tmp_path)) == first
    assert stat.S_IMODE((tmp_path / SECRET_FILE).stat().st_mode) == 0o600


def test_configured_secret_wins_and_must_be_long(tmp_path):
    assert load_server_secret(config_for(tmp_path, secret_key="k" * 40)) == "k" * 40
    assert not (tmp_path / SECRET_FILE).exists()
    with pytest.raises(ValueError, match="at least 32"):
        load_server_secret(config_for(tmp_path, secret_key="short"))


def _load_in_process(data_dir: str, answers) -> None:
    try:
        answers.put(load_server_secret(config_for(data_dir)))
    except ValueError as error:  # what a reader finding the file empty raised
        answers.put(f"refused: {error}")


def test_processes_starting_at_once_all_read_the_one_secret_made(tmp_path):
    context = multiprocessing.get_context("fork")
    answers = context.Queue()
    for round_number in range(10):
        data_dir = tmp_path / str(round_number)
        starters = [
            context.Process(target=_load_in_process, args=(str(data_dir), answers))
            for _ in range(4)
        ]
        for starter in starters:
            starter.start()
        secrets_read = {answers.get(timeout=60) for _ in starters}
        for starter in starters:
            starter.join(timeout=60)
            assert starter.exitcode == 0
        assert secrets_read == {(data_dir / SECRET_FILE).read_text()}
        assert [path.name for path in data_dir.iterdir()] == [SECRET_FILE]
