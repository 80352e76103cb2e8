"""Every issue code AssetCheck registers is raised by some test: the codes raised are recorded by
every process of the session (assetcheck.issues.recording), and a whole-suite run fails naming
each built-in code none raised (tests/raised_codes.py)."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from assetcheck.issues import IssueCollector, IssueRegistry
from assetcheck.issues.recording import RECORD_FILE, RECORD_VARIABLE, recorded_codes
from assetcheck.plugins import builtin_codes

REPOSITORY = Path(__file__).resolve().parents[2]
WRITERS = 4

#: Each writer raises every built-in code, each once in a process of its own.
RAISE_EVERY_CODE = """
from assetcheck.issues import IssueCollector, IssueRegistry
from assetcheck.plugins import builtin_codes
registry = IssueRegistry(builtin_codes.register_issue_types())
collector = IssueCollector(registry)
for issue_type in registry:
    collector.add_count(issue_type.code, 1)
"""

#: A suite of one test that raises a single code, run with the plugin of tests/raised_codes.py.
ONE_CODE_SUITE = """
from assetcheck.testing import issue_codes

def test_a_file_that_is_no_model():
    assert issue_codes(b"glTF\x02", "notes.glb") == ["GLB_UNEXPECTED_END_OF_HEADER"]

def test_nothing():
    pass
"""


def child_env(**variables: str) -> dict[str, str]:
    """This environment with the repository first on ``PYTHONPATH``, plus ``variables``."""
    path = os.pathsep.join(filter(None, [str(REPOSITORY), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, **variables}


def collector() -> IssueCollector:
    return IssueCollector(IssueRegistry(builtin_codes.register_issue_types()))


def test_a_process_without_the_variable_records_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv(RECORD_VARIABLE, str(tmp_path))
    monkeypatch.delenv(RECORD_VARIABLE)
    collector().add("GLB_EXTRA_DATA", file="notes.glb")
    assert list(tmp_path.iterdir()) == []


def test_a_code_raised_in_a_forked_child_is_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv(RECORD_VARIABLE, str(tmp_path))
    child = multiprocessing.get_context("fork").Process(
        target=collector().add, args=("GLB_EXTRA_DATA",)
    )
    child.start()
    child.join(timeout=60)
    assert child.exitcode == 0
    assert recorded_codes(tmp_path) == {"GLB_EXTRA_DATA"}


def test_spawned_processes_writing_at_once_leave_every_line_whole(tmp_path):
    env = child_env(**{RECORD_VARIABLE: str(tmp_path)})
    writers = [
        subprocess.Popen([sys.executable, "-c", RAISE_EVERY_CODE], env=env) for _ in range(WRITERS)
    ]
    assert [writer.wait(timeout=120) for writer in writers] == [0] * WRITERS
    codes = {issue_type.code for issue_type in builtin_codes.register_issue_types()}
    lines = (tmp_path / RECORD_FILE).read_text().splitlines()
    assert Counter(lines) == dict.fromkeys(codes, WRITERS)


def run_suite(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """pytest over ``ONE_CODE_SUITE`` in ``folder``, with the plugin of tests/raised_codes.py."""
    (folder / "pytest.ini").write_text("[pytest]\ntestpaths = suite\n")
    (folder / "suite").mkdir(exist_ok=True)
    (folder / "suite" / "test_one_code.py").write_text(ONE_CODE_SUITE)
    env = child_env()
    command = [sys.executable, "-m", "pytest", "-p", "tests.raised_codes", "-p", "no:cacheprovider"]
    return subprocess.run(
        [*command, *args], cwd=folder, env=env, capture_output=True, text=True, timeout=300
    )


@pytest.mark.slow
@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["one-process", "xdist"])
def test_a_whole_suite_run_fails_naming_each_built_in_code_no_test_raised(tmp_path, workers):
    run = run_suite(tmp_path, *workers)
    assert run.returncode == pytest.ExitCode.TESTS_FAILED, run.stdout
    assert "2 passed" in run.stdout
    unraised = run.stdout.split("issue codes no test raised", 1)[1].split()
    assert "NO_MODEL_FILES" in unraised
    assert "GLB_UNEXPECTED_END_OF_HEADER" not in unraised


@pytest.mark.slow
@pytest.mark.parametrize(
    "subset",
    [
        ("suite/test_one_code.py",),
        ("-k", "nothing"),
        ("-n", "2", "-k", "nothing"),
        ("-m", "not slow"),
        ("--collect-only",),
    ],
)
def test_a_run_of_part_of_the_suite_does_not_check_the_codes(tmp_path, subset):
    run = run_suite(tmp_path, *subset)
    assert run.returncode == pytest.ExitCode.OK, run.stdout
    assert "no test raised" not in run.stdout
