"""A job's preview pictures and viewer files over HTTP: sent to its owner, never kept by the
browser (they must go with the job, its expiry or the owner's log-out)."""

from __future__ import annotations

from assetcheck.service.accounts.store import find_account, issue_key
from assetcheck.testing.shapes import pawn_glb
from tests.service.dashboard.conftest import Site
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import upload, wait_for_job


def test_previews_and_viewer_files_are_never_stored_by_the_browser(site: Site):
    email = site.account()
    key = issue_key(find_account(email), "files")[1]
    job_id = upload(site.url, key, pawn_glb(), filename="pawn.glb").json()["job_id"]
    assert wait_for_job(site.url, key, job_id, timeout=120)["status"] == "completed"
    owner = Visitor(site.url)
    assert owner.log_in(email).status_code == 302
    for path in ("previews/0.png", "models/0.glb", "models/0.json"):
        answer = owner.get(f"/jobs/{job_id}/{path}")
        assert answer.status_code == 200, path
        assert answer.headers["Cache-Control"] == "no-store", path
