"""The repository's own pre-commit hooks (``.pre-commit-config.yaml``) run the checks of
``./dev test`` with the tools of ``./dev``'s virtual environment, downloading nothing."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
#: The words that tell the checks apart (beside options that only change the output).
COMPARED = {"check", "format", "--check"}


def check_of(command: str) -> str:
    """``command`` as ``tool subcommand``: ``.venv/bin/ruff check --quiet .`` is ``ruff check``."""
    program, *args = shlex.split(command)
    return " ".join([Path(program).name, *(arg for arg in args if arg in COMPARED)])


def dev_checks() -> set[str]:
    """The checks of ``dev``'s ``check`` function."""
    body = re.search(r"^check\(\) \{\n(.*?)^\}", (ROOT / "dev").read_text(), re.S | re.M)
    assert body, "dev has no check function"
    return {check_of(line) for line in body[1].splitlines()}


def test_the_pre_commit_hooks_are_the_checks_of_dev_test_and_download_nothing():
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert {repo["repo"] for repo in config["repos"]} == {"local"}
    assert {hook["language"] for hook in hooks} == {"system"}
    for hook in hooks:
        assert hook["entry"].startswith(".venv/bin/"), f"{hook['id']} runs a tool outside .venv"
    checks = {check_of(hook["entry"]) for hook in hooks}
    assert checks == dev_checks() == {"ruff check", "ruff format --check", "mypy"}
