"""The pytest plugin that proves every registered built-in issue code is raised by some test.

At configuration it names a fresh folder in the environment variable of
:mod:`assetcheck.issues.recording`, so the test process and every process it starts (forked or
spawned children, the services the tests run) record the codes they raise there. At the end of
a whole-suite run (pytest given no paths, nothing deselected, not stopped early) the run fails,
naming each built-in code that no process raised: a code nothing can trigger is dead, and a
code no test triggers can silently stop firing. ``tests/conftest.py`` loads it.

Under pytest-xdist (``-n``), the controlling process names the folder and judges the run; its
workers inherit the variable, record into the same folder and judge nothing. The workers
collect and deselect, so the controller reads the deselecting options themselves.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from assetcheck.issues.recording import RECORD_VARIABLE, recorded_codes
from assetcheck.plugins.manager import PluginConfig, build_registry, get_plugin_manager

FOLDER = pytest.StashKey[Path]()
DESELECTED = pytest.StashKey[int]()
UNRAISED = pytest.StashKey[list[str]]()


def unraised_builtin_codes(folder: Path) -> list[str]:
    """The built-in codes (no installed plugin's) that no process recorded in ``folder``."""
    registry = build_registry(get_plugin_manager(PluginConfig(entry_points=False)))
    raised = recorded_codes(folder)
    return sorted(issue_type.code for issue_type in registry if issue_type.code not in raised)


def pytest_configure(config: pytest.Config) -> None:
    config.stash[DESELECTED] = 0
    if _is_xdist_worker(config):
        return
    folder = Path(tempfile.mkdtemp(prefix="raised-issue-codes-"))
    config.stash[FOLDER] = folder
    os.environ[RECORD_VARIABLE] = str(folder)


def pytest_deselected(items: list[pytest.Item]) -> None:
    # -k, -m, --deselect and --last-failed all report here.
    config = items[0].config if items else None
    if config is not None:
        config.stash[DESELECTED] += len(items)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _whole_suite_ran(session, exitstatus):
        unraised = unraised_builtin_codes(session.config.stash[FOLDER])
        session.config.stash[UNRAISED] = unraised
        if unraised:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, config: pytest.Config
) -> None:
    unraised = config.stash.get(UNRAISED, None)
    if unraised is None:  # not a whole-suite run: nothing was checked
        return
    if unraised:
        terminalreporter.write_sep("=", f"{len(unraised)} issue codes no test raised", red=True)
        terminalreporter.write_line(" ".join(unraised))
    else:
        terminalreporter.write_line("Every built-in issue code was raised by some test.")


def pytest_unconfigure(config: pytest.Config) -> None:
    if _is_xdist_worker(config):
        return
    os.environ.pop(RECORD_VARIABLE, None)
    shutil.rmtree(config.stash[FOLDER], ignore_errors=True)


def _is_xdist_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _whole_suite_ran(session: pytest.Session, exitstatus: int) -> bool:
    config = session.config
    option = config.option
    return (
        not _is_xdist_worker(config)
        and config.args_source == pytest.Config.ArgsSource.TESTPATHS
        and config.stash[DESELECTED] == 0
        and not (option.keyword or option.markexpr or option.deselect)
        and not getattr(option, "lf", False)  # --last-failed, when the cache plugin is on
        and not config.option.collectonly
        and session.testscollected > 0
        and not session.shouldstop
        and not session.shouldfail
        and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED)
    )
