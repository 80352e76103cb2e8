"""The OpenAPI document is exact: schemathesis, run as a stranger would run it against the
live server (its command line, every check, every phase, stateful included), finds nothing.

The run is bounded and deterministic (``tests/service/schemathesis.toml``), so it takes well
under a minute and gives the same verdict every time. The account has a webhook URL on
loopback, where nothing answers, so jobs make deliveries and the links reach real delivery ids.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from assetcheck.accounts.keys import key_digest
from assetcheck.db.tables import Account, ApiKey

CONFIG = Path(__file__).with_name("schemathesis.toml")
#: schemathesis's own command, run by this interpreter.
SCHEMATHESIS = "import sys; from schemathesis.cli import schemathesis; sys.exit(schemathesis())"


def test_schemathesis_finds_the_server_answering_exactly_as_its_document_says(
        url, key, tmp_path):
    account = ApiKey.get(ApiKey.digest == key_digest(key)).account
    Account.update(webhook_url="http://127.0.0.1:9/hooks").where(
        Account.id == account.id).execute()
    run = subprocess.run(
        [sys.executable, "-c", SCHEMATHESIS, "--config-file", str(CONFIG), "--no-color", "run",
         f"{url}/api/v1/openapi.json", "--header", f"Authorization: Bearer {key}",
         "--checks", "all", "--phases", "examples,coverage,fuzzing,stateful",
         "--report", "junit", "--report-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 0, run.stdout[-20_000:] + run.stderr[-5_000:]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅  {phase}" in run.stdout, run.stdout[-5_000:]
    assert "API Links:    0 covered" not in run.stdout
