"""A worker: claims jobs one at a time and validates each in a child process of its own.

The worker process holds the lease and renews it (with the job's progress) while a forked child
runs ``validate()``, so a hang or a blow-up in a validation costs one child, never the worker:

* the child passes ``[workers] job_timeout``: it is killed, the job fails VALIDATION_TIMEOUT;
* it runs out of memory (``[workers] memory_limit_mb`` beyond what it inherits): RESOURCE_LIMIT;
* it dies (a crash in native code): the attempt counts as crashed, the job is re-queued, and
  fails VALIDATION_CRASHED after the third (``JobQueue.record_crash``);
* the worker itself dies: its lease expires and the reaper does the same as for a crash;
* the worker is asked to stop: it lets the validation finish for ``shutdown_grace`` seconds,
  then kills it and hands the job back without counting an attempt.

The child writes its temporary files (``TMPDIR``) into the job's own scratch folder, under the
umask 077, and the worker removes that folder once the child is gone, however it ended: a
killed validation leaves no copy of upload content behind (``docs/security.md``, Data at rest).
With object storage the child first fetches the upload into the job's working folder on this
node (under the job's time and memory limits), and stores the preview pictures back after the
validation; the worker then removes the whole working folder. What the previews may take is
bounded (:func:`assetcheck.service.jobs.quota.job_budget`), and the job records the bytes it stored
beside its upload, which count toward its account's quota. A storage outage while fetching
counts as a crashed attempt (the job is re-queued), never as a broken file.

A job deleted while it runs (``DELETE /api/v1/validate/{id}``) loses its row: the worker's next
lease renewal fails, it kills the child, and it removes whatever the child stored meanwhile.

The child is started by :func:`assetcheck.sandbox.child.start_child`, as every parser and
decoder is, under the job's limits: ``job_timeout`` as its deadline (and the CPU time derived
from it), ``memory_limit_mb`` of address space. It leads a process group of its own, which the
decoders and parsers it forks join; however the job ends, that whole group is killed before the
child is reaped, so nothing the job started runs on. Should the worker itself die, the kernel
kills the child (and each decoder, the death of its own parent) with SIGKILL. The worker sleeps
on the child's pipe and its pidfd between lease renewals, so it hears of the answer (or of the
child's death) at once. The child's answer is loaded with the same restricted unpickler as a
decoder's: only plain data and :class:`Outcome`, never code a subverted child could name.
"""

from __future__ import annotations

import logging
import math
import os
import tempfile
import time
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

import pluggy

from assetcheck.asset.dimensions import ProductDimensions
from assetcheck.config.settings import Config
from assetcheck.engine import validate
from assetcheck.formats.registry import format_registry
from assetcheck.previews.drawing import PreviewWriter
from assetcheck.reports.document import build_report, cap_report, json_size
from assetcheck.reports.failures import (
    RESOURCE_LIMIT,
    UNKNOWN_ENGINE,
    UPLOAD_MISSING,
    VALIDATION_CRASHED,
    VALIDATION_TIMEOUT,
)
from assetcheck.sandbox.child import Child, ChildFailure, ChildTimeout, start_child
from assetcheck.sandbox.containment import is_allocation_failure
from assetcheck.scoring.profiles import UnknownEngineError
from assetcheck.service.db.tables import Job, iso
from assetcheck.service.jobs.comparison import baseline_comparison
from assetcheck.service.jobs.queue import COMPLETED, JobQueue
from assetcheck.service.jobs.quota import DerivedLimit, job_budget
from assetcheck.service.jobs.storage import JobStorage, StorageUnavailable, open_storage
from assetcheck.service.observability import log_context
from assetcheck.service.observability.metrics import service_metrics

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """How one validation ended: ``completed`` with a report, ``failed`` with an error code, or
    ``crashed`` (the child died without an answer, or could not reach the storage)."""

    status: str
    report: dict[str, Any] | None = None
    code: str = ""
    message: str = ""
    derived_bytes: int = 0  # stored beside the upload: previews and report


class Worker:
    """Runs queued jobs until :meth:`request_stop`, under the limits of ``[workers]``.
    ``owner`` names this worker in leases."""

    def __init__(
        self,
        config: Config,
        queue: JobQueue,
        plugin_manager: pluggy.PluginManager,
        owner: str,
    ) -> None:
        self.config = config
        self.queue = queue
        self.storage = open_storage(config.storage)
        self.derived_limit = DerivedLimit.from_settings(config.storage)
        self.plugin_manager = plugin_manager
        self.owner = owner
        self.job_timeout = config.workers.job_timeout
        self.memory_limit_mb = config.workers.memory_limit_mb
        # How often the lease is renewed while busy, and work looked for while idle: well
        # within the lease.
        self.tick = min(1.0, config.workers.lease_seconds / 4)
        self.stop_at: float | None = None

    def request_stop(self) -> None:
        """Stop claiming; a running validation gets ``shutdown_grace`` seconds to finish."""
        if self.stop_at is None:
            self.stop_at = time.monotonic() + self.config.workers.shutdown_grace

    def run(self) -> None:
        while self.stop_at is None:
            job = self.queue.claim(self.owner)
            if job is None:
                time.sleep(self.tick)
            else:
                self.run_job(job)

    def run_job(self, job: Job) -> None:
        """Validate ``job`` in a child and record how it ended (unless the lease was lost).
        Every log line meanwhile names the job, its account and the request that made it."""
        with log_context.bound(request_id=job.request_id, job_id=job.id, account_id=job.account_id):
            self._run_job(job)

    def _run_job(self, job: Job) -> None:
        log.info("job %s: validating %s (attempt %d)", job.id, job.filename, job.attempts)
        started = time.monotonic()
        expected = self.queue.typical_duration()
        task = {**self._child_task(job), "scratch": self.storage.scratch_folder(job.id)}
        try:
            with start_child(
                partial(_validate_in_child, task),
                timeout=self.job_timeout,
                memory_limit_mb=self.memory_limit_mb,
                result_types=[Outcome],
                own_group=True,
            ) as child:  # leaving it kills the job's whole process group
                outcome = self._wait(job, child, started, expected)
        finally:
            self.storage.clear_scratch(job.id)
        recorded = False
        if outcome is not None:
            seconds = time.monotonic() - started
            service_metrics().validation_duration.labels(
                format=format_registry(self.plugin_manager).from_name(job.filename) or "other",
                outcome=outcome.status,
            ).observe(seconds)
            recorded = self._record(job, outcome, seconds)
        if not recorded and not self.queue.exists(job.id):
            self._remove_files_of_deleted(job.id)

    def _remove_files_of_deleted(self, job_id: str) -> None:
        """The job was deleted while it ran: remove what its validation stored meanwhile (on
        a storage outage, the sweeper does it later)."""
        try:
            self.storage.delete_job(job_id)
        except StorageUnavailable as error:
            log.warning(
                "job %s: deleted while it ran; its files stay until the sweep: %s", job_id, error
            )
        else:
            log.info("job %s: deleted while it ran, its files are removed", job_id)

    def _child_task(self, job: Job) -> dict[str, Any]:
        options = self.config.validation_options(job.engine)
        dimensions = job.options.get("dimensions") if isinstance(job.options, dict) else None
        if dimensions is not None:  # validated when the job was created
            options = replace(options, dimensions=ProductDimensions.from_json(dimensions))
        return {
            "storage": self.storage,
            "stored_path": job.stored_path,
            "filename": job.filename,
            "options": options,
            "plugin_manager": self.plugin_manager,
            "memory_limit_mb": self.memory_limit_mb,
            "job": {
                "job_id": job.id,
                "created_at": iso(job.created_at),
                "sha256": job.sha256,
                "size": job.size,
            },
            # [validation] max_report_mb: the stored report's size (docs/security.md, Reports)
            "max_report_bytes": self.config.validation.max_report_mb << 20,
            # Preview pictures are extras: started only in the first half of the time limit.
            "previews_until": time.monotonic() + self.job_timeout / 2,
            "previews_budget": job_budget(self.derived_limit, self.queue, self.config.plans, job),
        }

    def _wait(
        self, job: Job, child: Child[Outcome], started: float, expected: float
    ) -> Outcome | None:
        """The child's outcome, or None when the job is no longer this worker's to record.
        Until the child answers, dies or runs out of time, the lease is renewed every tick."""
        while not child.wait(self.tick):
            if self.stop_at is not None and time.monotonic() > self.stop_at:
                self.queue.hand_back(job.id, self.owner)
                log.info("job %s: handed back at shutdown", job.id)
                return None
            progress = _progress(time.monotonic() - started, expected)
            if not self.queue.renew(job.id, self.owner, progress):
                log.warning("job %s: lease lost, result dropped", job.id)
                return None
        return outcome_of(child, self.job_timeout)

    def _record(self, job: Job, outcome: Outcome, seconds: float) -> bool:
        """Store how the job ended; False when its lease was lost."""
        if outcome.status == COMPLETED:
            assert outcome.report is not None
            report, derived_bytes = _with_comparison(job, outcome)
            recorded = self.queue.complete(job.id, self.owner, report, derived_bytes=derived_bytes)
        elif outcome.status == "crashed":
            status = self.queue.record_crash(job.id, self.owner, outcome.message)
            recorded = status is not None
            log.warning("job %s: validation %s, job %s", job.id, outcome.message, status)
        else:
            recorded = self.queue.fail(job.id, self.owner, outcome.code, outcome.message)
        if recorded:
            log.info("job %s: %s in %.2f s", job.id, outcome.status, seconds)
        else:
            log.warning("job %s: lease lost before the result was stored", job.id)
        return recorded


def _with_comparison(job: Job, outcome: Outcome) -> tuple[dict[str, Any], int]:
    """The completed job's report, with its ``comparison`` when the upload named a baseline
    job, and the bytes the job stores beside its upload, the comparison included."""
    assert outcome.report is not None
    comparison = baseline_comparison(job, outcome.report)
    if comparison is None:
        return outcome.report, outcome.derived_bytes
    return {**outcome.report, "comparison": comparison}, outcome.derived_bytes + json_size(
        comparison
    )


def outcome_of(child: Child[Outcome], job_timeout: float) -> Outcome:
    """How the validation ``child`` ended: its :class:`Outcome`, a timeout, or a crash (it died
    without answering, raised, or answered with something else: plain data a subverted child
    may send)."""
    try:
        answer = child.result()
    except ChildTimeout:
        return Outcome(
            "failed",
            code=VALIDATION_TIMEOUT.code,
            message=f"the validation took longer than the {job_timeout:g} s limit",
        )
    except ChildFailure as failure:
        return Outcome("crashed", message=str(failure))
    except Exception as error:  # raised by the child (as its text, unless a built-in type)
        return Outcome("crashed", message=f"the validation raised {type(error).__name__}: {error}")
    if not isinstance(answer, Outcome):
        return Outcome(
            "crashed", message=f"the validation sent a {type(answer).__name__}, not an outcome"
        )
    return answer


def _progress(elapsed: float, expected: float) -> int:
    """10 when the validation starts, approaching 95 (63 % of the way at the typical duration)."""
    return 10 + int(85 * (1 - math.exp(-elapsed / max(expected, 0.1))))


def _validate_in_child(task: dict[str, Any]) -> Outcome:
    """The child: validate one upload; how it ended."""
    _private_temporary_files(task["scratch"])
    storage: JobStorage = task["storage"]
    job_id = task["job"]["job_id"]
    try:
        path = storage.checkout(task["stored_path"], job_id, task["job"]["size"])
    except StorageUnavailable as error:  # not the file's fault: try again later
        outcome = Outcome("crashed", message=str(error))
    except OSError as error:
        outcome = Outcome(
            "failed",
            code=UPLOAD_MISSING.code,
            message=f"the stored upload cannot be read: {error.strerror}",
        )
    else:
        previews = PreviewWriter(
            storage.drawing_folder(job_id),
            until=task["previews_until"],
            budget=task["previews_budget"],
        )
        outcome = _validate_upload(path, task, previews)
        # Completed (the only outcome with a report): before answering, after which the
        # worker ends this child.
        if outcome.report is not None:
            derived = _keep_previews(storage, job_id, previews.budget.used)
            outcome = replace(outcome, derived_bytes=derived + json_size(outcome.report))
    return outcome


def _validate_upload(path: Path, task: dict[str, Any], previews: PreviewWriter) -> Outcome:
    """How validating the checked-out upload at ``path`` ended: a report, or why there is none.
    An allocation refused under the job's memory limit (a ``MemoryError``, or ENOMEM from a
    system call) is RESOURCE_LIMIT; any other exception is a bug, VALIDATION_CRASHED."""
    try:
        result = validate(
            path,
            options=task["options"],
            filename=task["filename"],
            plugin_manager=task["plugin_manager"],
            on_checked=previews,
        )
        job = {**task["job"], **previews.report_fields()}
        return Outcome(
            COMPLETED, report=cap_report(build_report(result, job=job), task["max_report_bytes"])
        )
    except UnknownEngineError as error:
        return Outcome("failed", code=UNKNOWN_ENGINE.code, message=str(error))
    except Exception as error:
        if is_allocation_failure(error):
            return Outcome(
                "failed",
                code=RESOURCE_LIMIT.code,
                message=(
                    f"the validation needed more than the {task['memory_limit_mb']} MB memory limit"
                ),
            )
        # A bug, not a property of the file: retrying will not help.
        return Outcome(
            "failed",
            code=VALIDATION_CRASHED.code,
            message=f"the validation raised {type(error).__name__}: {error}",
        )


def _keep_previews(storage: JobStorage, job_id: str, drawn: int) -> int:
    """Store the drawn previews; the bytes stored. They are extras, so an outage costs them,
    not the report; it counts the ``drawn`` bytes, which may be stored in part."""
    try:
        return storage.keep_previews(job_id)
    except StorageUnavailable as error:
        log.warning("job %s: previews not stored: %s", job_id, error)
        return drawn


def _private_temporary_files(scratch: Path | None) -> None:
    """Make every file this process (and its children) creates owner-only, and put temporary
    files in ``scratch``, which the worker removes (the system's temporary folder when None)."""
    os.umask(0o077)
    if scratch is not None:
        os.environ["TMPDIR"] = str(scratch)
        tempfile.tempdir = str(scratch)
