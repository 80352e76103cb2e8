"""One account with something on every page: each kind of job page, a key, a delivery log.

The layout and accessibility tests open each page of the dashboard as it looks in use, not
empty: jobs that ended each way a job ends (a glTF and an FBX report, a failure, a file that
could not be read), one of them named with 5,000 characters (the service keeps 255), an API
key in the profile and a webhook delivery, still failing, in the log.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from assetcheck.testing.fbx import Scene, binary_fbx, cube
from assetcheck.testing.shapes import pawn_glb
from tests.service.dashboard.conftest import Site
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import wait_until

#: A name as an export script may make it: 5,000 characters without a space to break at.
LONG_NAME = ("pawn_export_from_the_batch_tool_" * 160)[:4996] + ".glb"
#: What the service keeps of it (``assetcheck.issues.names.cut_name``).
KEPT_NAME_LENGTH = 255
#: A GLB header that promises 64 bytes, then ends: no reader gets anything out of it.
UNREADABLE_GLB = b"glTF" + struct.pack("<II", 2, 64) + bytes(8)
#: The uploads by kind of job page: name and bytes. ``crash-`` makes the harness's test check
#: kill the validation, so the job fails (VALIDATION_CRASHED).
UPLOADS = {
    "gltf": (LONG_NAME, pawn_glb(copies=2)),
    "fbx": ("cube.fbx", binary_fbx(Scene(meshes=[cube()]))),
    "failed": ("crash-pawn.glb", pawn_glb()),
    "unreadable": ("broken.glb", UNREADABLE_GLB),
}
#: Pages without a session, by name.
SIGNED_OUT_PAGES = {"login": "/login", "signup": "/signup"}
#: Pages of the account, by name: a job page is ``job-`` and the kind of its job.
SIGNED_IN_PAGES = ("upload", "jobs", *(f"job-{kind}" for kind in UPLOADS), "profile", "webhooks")
#: Every page by name.
PAGES = (*SIGNED_OUT_PAGES, *SIGNED_IN_PAGES)
#: A port on loopback nothing listens on: the webhook's deliveries fail and stay in the log.
CLOSED_WEBHOOK_URL = "http://127.0.0.1:9/hooks"
#: Every job must end by then, on a busy machine (a crash is tried three times).
JOBS_DEADLINE_SECONDS = 240


@dataclass(frozen=True)
class Gallery:
    """An account (log in as ``email``) and its jobs' ids by kind (:data:`UPLOADS`)."""

    email: str
    jobs: dict[str, str]

    def path(self, name: str) -> str:
        """The path of the page ``name`` (of :data:`PAGES`)."""
        paths = {
            **SIGNED_OUT_PAGES,
            "upload": "/",
            "jobs": "/jobs",
            **{f"job-{kind}": f"/jobs/{job_id}" for kind, job_id in self.jobs.items()},
            "profile": "/profile",
            "webhooks": "/settings/webhooks",
        }
        return paths[name]


def make_gallery(site: Site) -> Gallery:
    """Upload :data:`UPLOADS` for a new Pro account, give it a key and a failing webhook
    delivery, and wait until every job has ended."""
    email = site.account("pro")
    visitor = Visitor(site.url)
    assert visitor.log_in(email).status_code == 302
    jobs = {}
    for kind, (name, content) in UPLOADS.items():
        answer = visitor.upload(content, name)
        assert answer.status_code == 202, answer.text
        jobs[kind] = answer.json()["job_id"]
    assert visitor.post("/profile/keys", {"name": "CI pipeline", "expires_in": ""}).ok
    assert visitor.post(
        "/settings/webhooks/url", {"webhook_url": CLOSED_WEBHOOK_URL, "action": "save"}
    ).is_redirect
    assert visitor.post("/settings/webhooks/test").is_redirect

    def ended() -> bool:
        states = [visitor.get(f"/jobs/{job}/status").json()["status"] for job in jobs.values()]
        return all(state in ("completed", "failed") for state in states)

    assert wait_until(ended, timeout=JOBS_DEADLINE_SECONDS, interval=0.25), "jobs did not end"
    return Gallery(email, jobs)
