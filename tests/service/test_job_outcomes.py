"""How a validation that raises ends its job: an allocation the job's memory limit refuses is
RESOURCE_LIMIT, whatever form the refusal takes; any other error is VALIDATION_CRASHED, never
blamed on the upload (UPLOAD_MISSING is for an upload that cannot be read)."""

from __future__ import annotations

import pytest

from tests.service.harness import ServiceProcess, upload, wait_for_job
from tests.service.test_workers import new_key

#: A scoring plugin (it runs after every reader and check, outside their crash guards) that
#: raises an OSError with the given errno.
RAISING_SCORER = """
import errno
from assetcheck.plugins.hookspecs import hookimpl

@hookimpl(tryfirst=True)
def compute_health_score(counts, severities, security_levels):
    raise OSError(errno.{name}, "raised by the test plugin")
"""


@pytest.mark.parametrize(
    ("errno_name", "code"), [("ENOMEM", "RESOURCE_LIMIT"), ("EIO", "VALIDATION_CRASHED")]
)
def test_an_error_raised_while_validating_is_not_blamed_on_the_upload(
    local_config, glb, tmp_path, errno_name, code
):
    config_path = local_config(workers={"processes": 1})
    (tmp_path / "plugins" / "test_raising_scorer.py").write_text(
        RAISING_SCORER.format(name=errno_name)
    )
    server = ServiceProcess(config_path).start()
    try:
        key = new_key(server.config)
        job_id = upload(server.url, key, glb).json()["job_id"]
        body = wait_for_job(server.url, key, job_id, timeout=120)
    finally:
        server.stop()
    assert (body["status"], body["error"]["code"]) == ("failed", code)
