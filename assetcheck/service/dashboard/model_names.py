"""The names of a completed job's model files, decoded from its stored report once and then
kept: each picture and 3D model the job page shows asks for one by its number, and a report may
be megabytes (``docs/dashboard.md``, The job page). A report never changes once its job has
completed, so the job's id and end time identify it."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from datetime import datetime

from assetcheck.service.db.tables import Job
from assetcheck.service.webapp.job_views import report_text

#: Jobs whose names are kept at most by default (a few hundred short lists).
DEFAULT_MAX_JOBS = 512


class ModelFileNames:
    """The model file names of completed jobs, least recently used out past ``max_jobs``;
    ``decoded`` counts the reports read. Safe to use from several threads at once."""

    def __init__(self, max_jobs: int = DEFAULT_MAX_JOBS) -> None:
        self.max_jobs = max_jobs
        self.decoded = 0
        self._names: OrderedDict[tuple[str, datetime | None], tuple[str, ...]] = OrderedDict()
        self._lock = threading.Lock()

    def of(self, job: Job) -> tuple[str, ...]:
        """The names of ``job``'s model files, in the report's order (empty without a report)."""
        key = (job.id, job.finished_at)
        with self._lock:
            names = self._names.get(key)
            if names is not None:
                self._names.move_to_end(key)
                return names
        text = report_text(job.id)
        names = (
            ()
            if text is None
            else tuple(mesh["filename"] for mesh in json.loads(text)["result"]["meshes"])
        )
        with self._lock:
            self.decoded += 1
            self._names[key] = names
            while len(self._names) > self.max_jobs:
                self._names.popitem(last=False)
        return names
