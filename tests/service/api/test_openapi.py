"""The OpenAPI document is exact: schemathesis, run as a stranger would run it against the
live server (its command line, every check, every phase, stateful included), finds nothing.

The run is bounded and deterministic (``tests/service/api/schemathesis.toml``), so it takes well
under a minute and gives the same verdict every time. It has a server of its own, whose
workers its uploads keep busy. The account has a webhook URL on loopback, where nothing
answers, so jobs make deliveries and the links reach real delivery ids.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from assetcheck.service.accounts.store import create_account, issue_key
from assetcheck.service.db.tables import Account
from tests.service.harness import ServiceProcess, bind_database

CONFIG = Path(__file__).with_name("schemathesis.toml")
#: schemathesis's own command, run by this interpreter.
SCHEMATHESIS = "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())"


def test_schemathesis_finds_the_server_answering_exactly_as_its_document_says(
    local_config, tmp_path
):
    server = ServiceProcess(local_config()).start()
    try:
        bind_database(server.config)
        account = create_account("stranger@example.com", "pro", list(server.config.plans))
        Account.update(webhook_url="http://127.0.0.1:9/hooks").where(
            Account.id == account.id
        ).execute()
        key = issue_key(account, "schemathesis")[1]
        run = subprocess.run(
            [
                sys.executable,
                "-c",
                SCHEMATHESIS,
                "--config-file",
                str(CONFIG),
                "--no-color",
                "run",
                f"{server.url}/api/v1/openapi.json",
                "--header",
                f"Authorization: Bearer {key}",
                "--checks",
                "all",
                "--phases",
                "examples,coverage,fuzzing,stateful",
            ],
            capture_output=True,
            text=True,
            timeout=300,
            cwd=tmp_path,
        )
    finally:
        server.stop()
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-5_000:]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅  {phase}" in run.stdout, run.stdout[-5_000:]
    assert "API Links:    0 covered" not in run.stdout
