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
