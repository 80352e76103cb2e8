"""Every real model file we have, through the real worker, then everything its owner can open.

Debian's assimp-testmodels and the shared corpus (glTF, FBX, production FBX) are sent as jobs
to one server with one worker pool, all up front; then, for each job, its page, every
registered report format, its preview pictures and its viewer files must answer 200, or the
documented 404 for a model file that has no picture or no viewer model (the page then links
none), and neither the server nor its workers may log an error. Each source is optional on a
developer machine: its test skips, saying what is missing.
"""

from __future__ import annotations

import io
import json
import re
import secrets
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote

import pytest
import requests

from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.reports import report_formats
from assetcheck.service.accounts.store import create_account, find_account, issue_key
from tests.service.dashboard.conftest import PASSWORD
from tests.service.dashboard.test_accounts_http import Visitor
from tests.service.harness import (
    ServiceProcess,
    bearer,
    bind_database,
    service_settings,
    upload,
    wait_until,
    write_config,
)

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus"
SOURCES = {
    "assimp": Path("/usr/share/assimp/models"),
    "corpus-gltf": CORPUS / "gltf",
    "corpus-fbx": CORPUS / "fbx",
    "corpus-fbx-production": CORPUS / "fbx-production",
}
#: The upload formats the service accepts; a .gltf goes in a ZIP with the files it names.
ACCEPTED = (".glb", ".gltf", ".fbx", ".zip")
#: All jobs of every source must end by then, on two workers beside a busy machine.
DEADLINE_SECONDS = 600
#: The answer to an upload whose content is none of the accepted formats.
REFUSED_NOT_A_MODEL = (415, "UNSUPPORTED_FILE_TYPE")
#: A log line of the server or a worker that reports a failure.
ERROR_LINE = re.compile(
    r"\bERROR\b|\bCRITICAL\b|Traceback \(most recent call last\)|"
    r'"level": ?"(?:error|critical)"',
    re.IGNORECASE,
)
#: The first test also waits for the module's jobs (up to DEADLINE_SECONDS), then opens pages.
pytestmark = pytest.mark.timeout(3 * DEADLINE_SECONDS)


@dataclass(frozen=True)
class Upload:
    """One model file as it is sent: its name in the source, the upload's name and bytes."""

    source: str
    path: str
    filename: str
    content: bytes


def model_uploads(source: str, root: Path) -> list[Upload]:
    """Every accepted model file under ``root``, sorted; a .gltf with its resources."""
    paths = sorted(p for p in root.rglob("*") if p.is_file() and p.suffix.lower() in ACCEPTED)
    uploads = []
    for path in paths:
        name = str(path.relative_to(root))
        if path.suffix.lower() == ".gltf":
            uploads.append(Upload(source, name, path.stem + ".zip", gltf_zip(path)))
        else:
            uploads.append(Upload(source, name, path.name, path.read_bytes()))
    return uploads


def gltf_zip(path: Path) -> bytes:
    """A ZIP of the .gltf and the files its buffers and images name beside it."""
    folder = path.parent
    members = {path.name: path.read_bytes()}
    for uri in resource_uris(path):
        resource = (folder / unquote(uri)).resolve()
        if resource.is_file() and resource.is_relative_to(folder.resolve()):
            members[str(resource.relative_to(folder.resolve()))] = resource.read_bytes()
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return packed.getvalue()


def resource_uris(path: Path) -> list[str]:
    """The relative URIs of a glTF's buffers and images (glTF 1.0's objects too); none when
    the file is not JSON (the job then reports that)."""
    try:
        document = json.loads(path.read_bytes())
    except ValueError:
        return []
    uris = []
    for kind in ("buffers", "images"):
        items = document.get(kind) if isinstance(document, dict) else None
        items = items.values() if isinstance(items, dict) else items or []
        uris += [
            item["uri"]
            for item in items
            if isinstance(item, dict)
            and isinstance(item.get("uri"), str)
            and not item["uri"].startswith("data:")
        ]
    return uris


class CorpusRun:
    """The server, the owner (an API key and a logged-in dashboard session), and the job id
    of each upload."""

    def __init__(self, server: ServiceProcess) -> None:
        self.server = server
        bind_database(server.config)
        email = f"corpus-{secrets.token_hex(4)}@example.com"
        create_account(email, "pro", list(server.config.plans), PASSWORD)
        self.key = issue_key(find_account(email), "corpus")[1]
        self.owner = Visitor(server.url)
        assert self.owner.log_in(email).status_code == 302
        self.jobs: dict[Upload, str] = {}
        self.refused: dict[Upload, requests.Response] = {}
        self.missing = {name: root for name, root in SOURCES.items() if not root.is_dir()}

    def submit_all(self) -> None:
        for source, root in SOURCES.items():
            if source in self.missing:
                continue
            for item in model_uploads(source, root):
                answer = upload(self.server.url, self.key, item.content, filename=item.filename)
                if answer.status_code == 202:
                    self.jobs[item] = answer.json()["job_id"]
                else:
                    self.refused[item] = answer

    def unfinished(self) -> list[str]:
        listed = []
        for status in ("queued", "processing"):
            answer = requests.get(
                f"{self.server.url}/api/v1/validate",
                params={"status": status, "limit": 100},
                headers=bearer(self.key),
                timeout=30,
            )
            listed += [job["job_id"] for job in answer.json()["jobs"]]
        return listed


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[CorpusRun]:
    """Every source's files submitted at once, then waited for."""
    folder = tmp_path_factory.mktemp("corpus")
    settings = service_settings(
        folder,
        "",
        workers={"job_timeout": 120},
        # One owner opens every page: the page-render limit is for people, not this walk.
        plans={
            "pro": {
                "max_upload_mb": 64,
                "max_queued_jobs": 1000,
                "requests_per_minute": 100_000,
                "page_renders_per_minute": 100_000,
            }
        },
    )
    server = ServiceProcess(write_config(folder, settings)).start()
    run = CorpusRun(server)
    started = time.monotonic()
    run.submit_all()
    left = wait_until(lambda: not run.unfinished(), timeout=DEADLINE_SECONDS, interval=0.5)
    assert left, f"jobs still waiting after {DEADLINE_SECONDS} s: {run.unfinished()[:10]}"
    print(
        f"\n{len(run.jobs)} corpus jobs done in {time.monotonic() - started:.1f} s, "
        f"{len(run.refused)} uploads refused"
    )
    yield run
    server.stop()


@pytest.mark.parametrize("source", list(SOURCES))
def test_every_model_file_of_a_source_opens_whole_for_its_owner(corpus: CorpusRun, source: str):
    if source in corpus.missing:
        pytest.skip(f"{source} is absent (looked in {corpus.missing[source]})")
    formats = list(report_formats(get_plugin_manager()))
    # A file that is none of the formats (assimp's transparentTest.fbx, damaged on purpose)
    # gets the documented refusal, never a job.
    failures = [
        f"{item.path}: refused {answer.status_code} {answer.text}"
        for item, answer in corpus.refused.items()
        if item.source == source
        and (answer.status_code, answer.json()["code"]) != REFUSED_NOT_A_MODEL
    ]
    for item, job_id in corpus.jobs.items():
        if item.source == source:
            failures += [
                f"{item.path}: {problem}" for problem in job_problems(corpus, job_id, formats)
            ]
    assert not failures, "\n".join(failures)


def job_problems(run: CorpusRun, job_id: str, formats: list[str]) -> Iterator[str]:
    """What does not answer as documented among the job's page, reports and model files."""
    status = requests.get(
        f"{run.server.url}/api/v1/validate/{job_id}", headers=bearer(run.key), timeout=30
    ).json()
    if status["status"] != "completed":
        yield f"the job ended {status['status']}: {status.get('error')}"
        return
    page = run.owner.get(f"/jobs/{job_id}")
    if page.status_code != 200:
        yield f"job page: {page.status_code}"
    for name in formats:
        report = requests.get(
            f"{run.server.url}/api/v1/report/{job_id}/{name}", headers=bearer(run.key), timeout=60
        )
        if report.status_code != 200 or not report.content:
            yield f"{name} report: {report.status_code}"
    for number in range(len(status["result"]["meshes"])):
        yield from model_file_problems(run, job_id, number, page.text)


def model_file_problems(run: CorpusRun, job_id: str, number: int, page: str) -> Iterator[str]:
    """A preview picture and viewer files answer 200 when the page links them, else the
    documented 404 with its code's message."""
    files = {
        f"previews/{number}.png": "This model file has no preview picture.",
        f"models/{number}.glb": "This model file cannot be shown in the 3D viewer.",
        f"models/{number}.json": "This model file cannot be shown in the 3D viewer.",
    }
    for path, missing in files.items():
        url = f"/jobs/{job_id}/{path}"
        answer = run.owner.get(url)
        linked = f'"{url}"' in page
        if linked and (answer.status_code != 200 or not answer.content):
            yield f"{path}: {answer.status_code}, though the page links it"
        elif not linked and (answer.status_code != 404 or missing not in answer.text):
            yield f"{path}: {answer.status_code}, though the page does not link it"


def test_the_server_and_its_workers_logged_no_error(corpus: CorpusRun):
    """Last in this module: after every job and every page of the corpus."""
    errors = [line for line in corpus.server.log().splitlines() if ERROR_LINE.search(line)]
    assert not errors, "\n".join(errors[:40])
