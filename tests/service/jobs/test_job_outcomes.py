"""How a validation that raises ends its job: an allocation the job's memory limit refuses is
RESOURCE_LIMIT, whatever form the refusal takes; any other error is VALIDATION_CRASHED, never
blamed on the upload (UPLOAD_MISSING is for an upload that cannot be read). And how the worker
reads a validation child that ends without an outcome: a crashed attempt, or a timeout."""

from __future__ import annotations

import faulthandler
import os
import signal
import time
from pathlib import Path

import pytest

from assetcheck.sandbox.child import start_child
from assetcheck.service.jobs.worker import Outcome, outcome_of
from tests.service.harness import validate_on_own_service

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
    _, body = validate_on_own_service(config_path, glb, timeout=120)
    assert (body["status"], body["error"]["code"]) == ("failed", code)


def outcome_of_child(function, timeout: float = 60.0) -> Outcome:
    """How the worker reads a validation child that runs ``function``."""
    with start_child(
        function, timeout=timeout, memory_limit_mb=256, result_types=[Outcome], own_group=True
    ) as child:
        return outcome_of(child, timeout)


def test_an_error_raised_outside_the_validation_is_a_crashed_attempt():
    """Setting up the previews or storing them, say: the worker carries on."""
    outcome = outcome_of_child(Path("/nonexistent/previews").read_bytes)
    assert outcome.status == "crashed"
    assert "FileNotFoundError" in outcome.message


@pytest.mark.parametrize("signal_number", [signal.SIGSEGV, signal.SIGKILL])
def test_a_validation_child_killed_by_a_signal_is_a_crashed_attempt(signal_number):
    """Even SIGKILL (a decoder's would be out of memory): the job is retried, not failed."""

    def die() -> None:
        faulthandler.disable()  # pytest's handler would print a traceback for the signal
        os.kill(os.getpid(), signal_number)

    outcome = outcome_of_child(die)
    assert (outcome.status, outcome.message) == (
        "crashed",
        f"killed by {signal.Signals(signal_number).name}",
    )


def test_an_answer_that_is_not_an_outcome_is_a_crashed_attempt():
    outcome = outcome_of_child(lambda: {"status": "completed"})
    assert outcome == Outcome("crashed", message="the validation sent a dict, not an outcome")


def test_a_validation_child_past_the_job_time_limit_fails_the_job_as_timed_out():
    outcome = outcome_of_child(lambda: time.sleep(60), timeout=0.5)
    assert (outcome.status, outcome.code) == ("failed", "VALIDATION_TIMEOUT")
