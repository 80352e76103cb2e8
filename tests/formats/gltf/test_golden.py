"""Golden tests: each crafted broken file of ``tests/assets/gltf`` gives exactly its recorded
findings, and together they trigger every code the glTF checks can report.

The golden part of a report is the sorted list of ``[code, severity, pointer]``: no messages
or timings, so rewording a message does not churn the files. ``--update-golden`` rewrites the
crafted files from :mod:`tests.formats.gltf.cases`, :mod:`tests.formats.gltf.extension_cases`,
:mod:`tests.formats.gltf.ktx2_cases`, :mod:`tests.formats.gltf.skin_cases` and
:mod:`tests.formats.gltf.texture_cases` and their
reports from the current results.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assetcheck.engine import validate
from assetcheck.plugins.manager import DEFAULT_PLUGINS, call_each, get_plugin_manager
from tests.formats.gltf.cases import CASES as CORE_CASES
from tests.formats.gltf.extension_cases import EXTENSION_CASES
from tests.formats.gltf.ktx2_cases import KTX2_CASES
from tests.formats.gltf.skin_cases import SKIN_CASES
from tests.formats.gltf.texture_cases import TEXTURE_CASES

CASES = {**CORE_CASES, **EXTENSION_CASES, **KTX2_CASES, **SKIN_CASES, **TEXTURE_CASES}

GOLDEN = Path(__file__).resolve().parents[2] / "assets" / "gltf"
GLTF_CHECK_PLUGINS = [name for name in DEFAULT_PLUGINS if name.startswith("assetcheck.checks.gltf")]
GLTF_SOURCES = ("assetcheck.formats.glb", "assetcheck.formats.gltf", "assetcheck.checks.gltf")


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


def case_path(name: str) -> Path:
    return GOLDEN / f"{name}.{'glb' if CASES[name].glb else 'gltf'}"


def golden_findings(path: Path, plugin_manager) -> list[list]:
    """The findings of the glTF readers and checks (other plugins have their own tests)."""
    result = validate(path, plugin_manager=plugin_manager)
    return sorted(
        [issue.code, issue.severity, issue.pointer if issue.pointer is not None else issue.offset]
        for issue in result.issues
        if (issue.source or "").startswith(GLTF_SOURCES)
    )


@pytest.mark.parametrize("name", sorted(CASES))
def test_crafted_file_gives_its_golden_findings(name, plugin_manager, update_golden):
    path, report = case_path(name), GOLDEN / f"{name}.report.json"
    if update_golden:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_bytes(CASES[name].build())
        report.write_text(
            json.dumps({"findings": golden_findings(path, plugin_manager)}, indent=1) + "\n"
        )
    assert golden_findings(path, plugin_manager) == json.loads(report.read_text())["findings"]


@pytest.mark.parametrize("name", sorted(CASES))
def test_crafted_file_triggers_the_code_it_is_named_after(name):
    findings = json.loads((GOLDEN / f"{name}.report.json").read_text())["findings"]
    assert name.upper() in {code for code, _, _ in findings}


def test_every_code_of_the_gltf_checks_has_a_golden_file(plugin_manager):
    reported = {
        code
        for name in CASES
        for code, _, _ in json.loads((GOLDEN / f"{name}.report.json").read_text())["findings"]
    }
    declared = {
        code
        for plugin, checks in call_each(plugin_manager.hook.register_checks)
        if plugin in GLTF_CHECK_PLUGINS
        for check in checks
        for code in check.codes
    }
    assert declared - reported == set()


def test_golden_folder_holds_only_known_cases():
    names = {path.name.split(".")[0] for path in GOLDEN.iterdir()}
    assert names == set(CASES)
