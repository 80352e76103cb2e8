"""The JSON report holds everything the issue asks for: job and file metadata, the engine
profile, grouped issues with fixes, the checks and plugins that ran with their versions."""

from __future__ import annotations

import re
import sys
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assetcheck import __version__
from assetcheck.asset.result import CheckRun
from assetcheck.checks import Check
from assetcheck.engine import validate
from assetcheck.issues.names import CUT_MARK, MAX_NAME_LENGTH, cut_name, was_cut
from assetcheck.plugins.hookspecs import hookimpl
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.reports.document import (
    MAX_SENTENCE_LENGTH,
    build_failure_report,
    build_report,
    failure,
    plugins_that_ran,
)
from assetcheck.scoring.profiles import BUILTIN_PROFILES, Budgets
from assetcheck.testing.gltf import GltfBuilder, Primitive, png_bytes
from tests.reports.cases import HOSTILE, STORED_HOSTILE, UPLOADS, hostile_report
from tests.reports.test_schema import strings_of

STUDIO_PLUGIN = """
from assetcheck.checks import Check
from assetcheck.plugins.hookspecs import hookimpl

@hookimpl
def register_checks():
    return [Check("studio-rules", "nothing to say", lambda asset, context: None)]
"""


def report_of(tmp_path: Path, case: str, **kwargs) -> dict:
    upload = UPLOADS[case]
    path = tmp_path / "upload"
    path.write_bytes(upload.content)
    pm = kwargs.pop("plugin_manager", None) or get_plugin_manager(PluginConfig(entry_points=False))
    result = validate(path, engine=upload.engine, filename=upload.filename, plugin_manager=pm)
    return build_report(result, **kwargs)


@pytest.fixture
def installed_studio_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A real distribution, ``studio-rules 2.3.4``, whose entry point is a check plugin."""
    site = tmp_path / "site"
    (site / "studio_rules-2.3.4.dist-info").mkdir(parents=True)
    (site / "studio_rules-2.3.4.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: studio-rules\nVersion: 2.3.4\n"
    )
    (site / "studio_rules-2.3.4.dist-info" / "entry_points.txt").write_text(
        "[assetcheck]\nstudio = studio_rules_plugin\n"
    )
    (site / "studio_rules_plugin.py").write_text(STUDIO_PLUGIN)
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "studio_rules_plugin", raising=False)
    return "studio"


def test_built_in_checks_carry_assetchecks_version(tmp_path):
    report = report_of(tmp_path, "clean_glb")
    assert report["checks"] and {run["version"] for run in report["checks"]} == {__version__}
    assert {"name": "assetcheck.checks.geometry", "version": __version__} in report["plugins"]
    assert report["assetcheck"]["version"] == __version__


def test_an_installed_plugins_checks_carry_its_distribution_version(
    tmp_path, installed_studio_plugin
):
    report = report_of(tmp_path, "clean_glb", plugin_manager=get_plugin_manager())
    (run,) = [run for run in report["checks"] if run["plugin"] == installed_studio_plugin]
    assert (run["name"], run["version"]) == ("studio-rules", "2.3.4")
    assert {"name": "studio", "version": "2.3.4"} in report["plugins"]


def test_a_plugin_without_a_distribution_has_no_version(tmp_path):
    class Loose:
        @hookimpl
        def register_checks(self):
            return [Check("loose", "nothing", lambda asset, context: None)]

    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=(Loose(),)))
    report = report_of(tmp_path, "clean_glb", plugin_manager=pm)
    (run,) = [run for run in report["checks"] if run["name"] == "loose"]
    assert run["version"] is None


def test_plugins_are_listed_once_each(tmp_path):
    names = [plugin["name"] for plugin in report_of(tmp_path, "clean_glb")["plugins"]]
    assert len(names) == len(set(names)) > 1


def test_file_metadata_has_format_size_and_the_readers_scalar_facts(tmp_path):
    (file,) = report_of(tmp_path, "cube_fbx")["files"]
    assert (file["filename"], file["format"]) == ("box.fbx", "fbx")
    assert file["byteSize"] == len(UPLOADS["cube_fbx"].content)
    assert file["details"]["version"] == 7400 and "creator" in file["details"]
    assert "meshes" not in file["details"]  # per-mesh facts are in result.meshes


def test_the_engine_and_budget_use_list_every_budget_in_the_order_budgets_declares(tmp_path):
    report = report_of(tmp_path, "clean_glb")
    budgets = BUILTIN_PROFILES[report["engine"]["name"]].budgets
    declared = [(budget.name, getattr(budgets, budget.name)) for budget in fields(Budgets)]
    assert list(report["engine"]["budgets"].items()) == declared
    (use,) = report["budgetUse"]
    assert [entry["budget"] for entry in use["usage"]] == [name for name, _ in declared]


def test_job_fields_are_kept_as_given(tmp_path):
    job = {"job_id": "val_x", "created_at": "2025-01-31T12:00:00Z"}
    assert report_of(tmp_path, "clean_glb", job=job)["job"] == job
    assert report_of(tmp_path, "clean_glb")["job"] is None


def test_issues_are_grouped_by_code_in_severity_order_with_counts_and_locations(tmp_path):
    report = report_of(tmp_path, "flawed_glb")
    severities = [group["severity"] for group in report["issues"]]
    assert severities == sorted(severities, key=["error", "warning", "info", "hint"].index)
    normals = next(g for g in report["issues"] if g["code"] == "MESH_MISSING_NORMALS")
    assert normals["count"] == len(normals["occurrences"]) == 9
    assert all(o["pointer"].startswith("/meshes/") for o in normals["occurrences"])
    assert report["summary"]["severityCounts"] == {"error": 1, "warning": 10, "info": 1, "hint": 0}


def test_security_findings_carry_their_level_in_their_group(tmp_path):
    groups = {g["code"]: g for g in report_of(tmp_path, "hostile_zip")["issues"]}
    assert groups["ZIP_PATH_TRAVERSAL"]["securityLevel"] == "critical"
    assert "securityLevel" not in report_of(tmp_path, "flawed_glb")["issues"][0]


def test_an_occurrence_keeps_its_own_fix_only_when_it_differs_from_its_groups():
    (group,) = hostile_report(occurrences=3)["issues"]
    first, *others = group["occurrences"]
    assert group["fix"].endswith("0.") and "fix" not in first
    assert [o["fix"][-2:] for o in others] == ["1.", "2."]


def test_a_group_has_its_codes_title_and_only_a_counted_occurrence_its_headline(tmp_path):
    groups = {g["code"]: g for g in report_of(tmp_path, "flawed_glb")["issues"]}
    materials, normals = groups["BUDGET_MATERIALS"], groups["MESH_MISSING_NORMALS"]
    assert (materials["title"], normals["title"]) == ("Too many materials", "Missing normals")
    assert materials["occurrences"][0]["headline"] == "Too many materials (10, limit 8)"
    assert not any("headline" in o for o in normals["occurrences"])


def test_a_failed_jobs_report_has_no_grade_and_says_why_and_what_to_do():
    report = build_failure_report(
        "chair.fbx",
        BUILTIN_PROFILES["web"],
        {"code": "RESOURCE_LIMIT", "message": "out of memory"},
        job={"job_id": "val_x"},
    )
    assert (report["grade"], report["health_score"], report["valid"]) == (None, None, False)
    assert report["result"] is None and report["issues"] == []
    assert report["engine"]["budgets"] == BUILTIN_PROFILES["web"].budgets.to_dict()
    error = failure(report)
    assert (error["code"], error["message"]) == ("RESOURCE_LIMIT", "out of memory")
    assert "memory_limit_mb" in error["advice"]


def test_a_failed_job_whose_engine_is_gone_names_it_without_budgets():
    report = build_failure_report(
        "chair.fbx", "quake", {"code": "UNKNOWN_ENGINE", "message": "no profile quake"}
    )
    assert report["engine"] == {"name": "quake", "title": "quake", "budgets": {}}


def test_a_completed_report_is_no_failure(tmp_path):
    assert failure(report_of(tmp_path, "clean_glb")) is None


def test_nuls_and_lone_surrogates_from_a_file_become_replacement_characters(tmp_path):
    report = report_of(tmp_path, "hostile_glb")
    assert report["result"]["meshes"][0]["parts"][0]["name"] == STORED_HOSTILE
    assert report["files"][0]["details"]["generator"] == STORED_HOSTILE


def test_a_nul_in_a_plain_ascii_key_or_value_becomes_a_replacement_character(tmp_path):
    job = {"note\x00": "ok\x00", "plain": "ok"}
    assert report_of(tmp_path, "clean_glb", job=job)["job"] == {
        "note\ufffd": "ok\ufffd",
        "plain": "ok",
    }


class Text(str):
    """A string of another type, as a plugin's field might be."""


#: Texts a report must store cleaned and cut: a NUL, lone surrogates, a 10,000-character name,
#: names just under and over the limit, a name already cut, clean text that is not ASCII.
UNCLEAN_TEXTS = [
    "plain",
    "",
    "crate\x00lid",
    "\ud800",
    "\udfff tail",
    "é",
    "n" * 10_000,
    "x" * MAX_NAME_LENGTH,
    "x" * (MAX_NAME_LENGTH + 1),
    cut_name("c" * 400),
    HOSTILE,
    Text("sub\x00class"),
]
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def plainly_stored(value: Any, key: str, cut: list[str]) -> Any:
    """What the module's notes promise of ``value``, walked the plain way: every key cleaned,
    every text cleaned and cut (a sentence to MAX_SENTENCE_LENGTH), each cut text counted."""
    if isinstance(value, str):
        limit = MAX_SENTENCE_LENGTH if key in ("message", "fix", "advice") else MAX_NAME_LENGTH
        text = cut_name(UNSTORABLE.sub("\ufffd", str(value)), limit)
        if was_cut(text):
            cut.append(text)
        return text
    if isinstance(value, dict):
        return {UNSTORABLE.sub("\ufffd", k): plainly_stored(v, k, cut) for k, v in value.items()}
    if isinstance(value, list):
        return [plainly_stored(item, key, cut) for item in value]
    return value


def test_every_text_and_key_at_any_depth_is_stored_as_the_plain_walk_stores_it(tmp_path):
    job = {
        text: {
            "message": text * 3,
            "fix": [text, {"advice": text, text: [text, 3, None, 1.5, True]}],
            "nested": [[text, {"name": text}], {}, []],
            text: text,
        }
        for text in UNCLEAN_TEXTS
    }
    cut: list[str] = []
    expected = plainly_stored(job, "", cut)
    report = report_of(tmp_path, "clean_glb", job=job)
    assert report["job"] == expected
    assert all(type(key) is str and type(text) is str for key, text in strings_of(report["job"]))
    assert report["summary"]["namesCut"] == len(cut) > 0


def test_a_files_hostile_names_are_stored_cleaned_and_cut_wherever_the_report_holds_them(
    tmp_path,
):
    name = "crate\x00\ud800" + "n" * 10_000
    builder = GltfBuilder(generator=name)
    texture = builder.add_texture(builder.add_image(png_bytes(100, 60), name=name))
    material = builder.add_material(name, base_color_texture=texture)
    for _ in range(2):
        builder.add_node(builder.add_mesh([Primitive(3, material=material)], name), name)
    report = build_report(validate(builder.write_glb(tmp_path / "hostile.glb")))
    texts = strings_of(report)
    quoting = {key for key, text in texts if "crate\ufffd\ufffdnnn" in text}
    assert quoting >= {"generator", "name", "message"}  # details, meshes, textures, issues
    assert not any(UNSTORABLE.search(key) or UNSTORABLE.search(text) for key, text in texts)
    assert all(
        len(text) <= (MAX_SENTENCE_LENGTH if key == "message" else MAX_NAME_LENGTH)
        for key, text in texts
    )
    (file,) = report["files"]
    assert CUT_MARK in file["gpuMemory"]["textures"][0]["name"]
    largest = [item["name"] for item in file["byteUsage"]["largest"]]
    assert sum(CUT_MARK in item for item in largest) == 2  # the image's, the mesh's
    assert all(CUT_MARK in part["name"] for part in report["result"]["meshes"][0]["parts"])
    assert report["summary"]["namesCut"] == sum(was_cut(text) for _, text in texts)


def test_file_metadata_counts_the_textures_and_the_gpu_memory_they_take(tmp_path):
    builder = GltfBuilder()
    for side in (64, 32):
        builder.add_texture(builder.add_image(png_bytes(side, side)))
    builder.add_node(builder.add_mesh([Primitive(3)]))
    path = builder.write_glb(tmp_path / "textured.glb")
    (file,) = build_report(validate(path))["files"]
    # RGBA8 with a full mip chain, level by level: 64² + 32² + ... + 1² texels of 4 bytes.
    chains = sum(4**level for level in range(7)) + sum(4**level for level in range(6))
    assert file["textureCount"] == 2
    assert file["gpuMemory"]["totalBytes"] == chains * 4


#: Texts a check run may carry, from a plugin: plain ones, and ones with a NUL, a lone
#: surrogate, a cut mark, text that is not ASCII, over a name's length, or of a str subclass.
RUN_TEXTS = st.one_of(
    st.text(st.characters(max_codepoint=127), max_size=20),
    st.text(st.sampled_from(["a", "\x00", "\ud800", "\udfff", "\u2026", "é"]), max_size=6),
    st.integers(MAX_NAME_LENGTH - 1, MAX_NAME_LENGTH + 2).map(lambda n: "r" * n),
    st.sampled_from(UNCLEAN_TEXTS),
)


def test_the_check_runs_texts_are_stored_as_the_plain_walk_stores_them(tmp_path):
    """Whether the ``checks`` and ``plugins`` sections are walked is decided from their texts
    at once: whatever those are, the sections are what the plain walk makes of them."""
    path = tmp_path / "clean.glb"
    path.write_bytes(UPLOADS["clean_glb"].content)
    result = validate(path)

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.tuples(RUN_TEXTS, RUN_TEXTS, st.none() | RUN_TEXTS), max_size=4))
    def stored_as_the_plain_walk(runs: list[tuple[str, str, str | None]]) -> None:
        result.checks = [CheckRun(name, plugin, version=version) for name, plugin, version in runs]
        cut: list[str] = []
        checks = plainly_stored([run.to_dict() for run in result.checks], "checks", cut)
        plugins = plainly_stored(plugins_that_ran(result.checks), "plugins", cut)
        stored = build_report(result)
        assert (stored["checks"], stored["plugins"]) == (checks, plugins)
        texts = strings_of([stored["checks"], stored["plugins"]])
        assert all(type(key) is str and type(text) is str for key, text in texts)
        assert stored["summary"].get("namesCut", 0) == len(cut)

    stored_as_the_plain_walk()
