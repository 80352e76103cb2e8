"""The names of a job's model files, which the job page's pictures and 3D models are found by:
each report is decoded once, whatever the number of files asked for."""

from __future__ import annotations

from assetcheck.service.dashboard.model_names import ModelFileNames
from assetcheck.service.db.tables import Account, Job
from assetcheck.service.webapp.job_views import find_job
from tests.service.harness import stored_completed_job


def completed_job(account: Account, filenames: list[str]) -> Job:
    """A completed job row whose report lists ``filenames``, read back without its report."""
    report = {"result": {"meshes": [{"filename": name} for name in filenames]}}
    return find_job(
        account.id, stored_completed_job(account, report, "upload.zip").id, with_report=False
    )


def test_a_jobs_report_is_decoded_once_for_all_its_files(database):
    account = Account.create(email="names@example.com", plan="pro")
    job = completed_job(account, ["a.glb", "b/c.fbx"])
    names = ModelFileNames()

    assert [names.of(job) for _ in range(3)] == [("a.glb", "b/c.fbx")] * 3
    assert names.decoded == 1


def test_the_least_recently_used_jobs_names_leave_first(database):
    account = Account.create(email="lru@example.com", plan="pro")
    first = completed_job(account, ["first.glb"])
    second = completed_job(account, ["second.glb"])
    names = ModelFileNames(max_jobs=1)

    assert names.of(first) == ("first.glb",) and names.of(second) == ("second.glb",)
    assert names.of(first) == ("first.glb",)  # read again: the second job pushed it out
    assert names.decoded == 3
