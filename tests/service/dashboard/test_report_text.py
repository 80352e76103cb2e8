"""The job page reads a completed job's row, then its report: retention or a deletion may
remove the report in between, and the page then says so instead of failing."""

from __future__ import annotations

import pytest

from assetcheck.service.db.tables import Account, Job, utcnow
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.job_views import completed_report_text
from tests.service.dashboard.test_model_names import completed_job


def test_a_report_still_stored_is_read_as_its_json_text(database):
    account = Account.create(email="stored@example.com", plan="pro")
    job = completed_job(account, ["a.glb"])

    assert "a.glb" in completed_report_text(job)


def test_a_report_that_expired_since_the_row_was_read_answers_410(database):
    account = Account.create(email="expiring@example.com", plan="pro")
    job = completed_job(account, ["a.glb"])
    Job.update(expired_at=utcnow(), result=None).where(Job.id == job.id).execute()

    with pytest.raises(RequestError) as error:
        completed_report_text(job)
    assert (error.value.status_code, error.value.code) == (410, "JOB_EXPIRED")


def test_a_job_deleted_since_its_row_was_read_answers_404(database):
    account = Account.create(email="deleted@example.com", plan="pro")
    job = completed_job(account, ["a.glb"])
    Job.delete().where(Job.id == job.id).execute()

    with pytest.raises(RequestError) as error:
        completed_report_text(job)
    assert (error.value.status_code, error.value.code) == (404, "JOB_NOT_FOUND")
