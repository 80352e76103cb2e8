"""The comparison core on real reports: what changed per file, and what makes it worse."""

from __future__ import annotations

import subprocess
import sys

import pytest

from assetcheck.diff import MetricChange, diff_reports, parse_threshold
from assetcheck.reports.document import cap_report, json_size
from assetcheck.testing.zip import zip_of
from tests.diff.models import glb, gltf_builder, report

GLB_CHANGES = {"vertices", "triangles", "textures_gpu_memory", "file_size"}


def changed_metrics(diff) -> set[str]:
    (entry,) = diff.files
    return {change.metric for change in entry.metrics if change.changed}


def test_a_report_compared_with_itself_has_no_changes(tmp_path):
    same = report(glb(tmp_path / "chair.glb"))
    diff = diff_reports([same], [same])
    assert diff.changed == [] and not diff.worse
    assert diff.to_dict()["summary"] == {
        "files": 1,
        "added": 0,
        "removed": 0,
        "changed": 0,
        "unchanged": 1,
        "findingsAdded": 0,
        "findingsFixed": 0,
    }


def test_a_decimated_and_retextured_model_names_every_statistic_that_changed(tmp_path):
    old = report(glb(tmp_path / "old.glb"), "chair.glb")
    new = report(glb(tmp_path / "new.glb", triangles=100, texture_side=128), "chair.glb")
    diff = diff_reports([old], [new])
    (entry,) = diff.files
    assert entry.status == "changed" and changed_metrics(diff) == GLB_CHANGES
    changes = {change.metric: change for change in entry.metrics}
    assert (changes["triangles"].old, changes["triangles"].new) == (200, 100)
    assert changes["triangles"].percent == -50.0
    assert changes["textures_gpu_memory"].percent == 300.0  # twice the side, four times the memory
    budgets = {budget.budget for budget in entry.budgets if budget.changed}
    assert {"triangles_per_file", "triangles_per_mesh", "texture_size"} <= budgets
    # The one finding (MESH_SEPARATE_PIECES, counting the pieces) is the same finding.
    assert (entry.added, entry.fixed, entry.unchanged) == ([], [], 1)
    assert not diff.worse


def test_a_new_error_makes_the_comparison_worse_and_fixing_it_does_not(tmp_path):
    good = report(glb(tmp_path / "good.glb"), "chair.glb")
    broken = report(glb(tmp_path / "broken.glb", texcoords=False), "chair.glb")
    worse = diff_reports([good], [broken])
    (entry,) = worse.files
    assert [known.code for known in entry.added] == ["MESH_PRIMITIVE_TOO_FEW_TEXCOORDS"]
    assert [(r.kind, r.file) for r in worse.regressions] == [("finding", "chair.glb")]
    better = diff_reports([broken], [good])
    assert [known.code for known in better.files[0].fixed] == ["MESH_PRIMITIVE_TOO_FEW_TEXCOORDS"]
    assert not better.worse


def test_a_budget_newly_exceeded_makes_the_comparison_worse(tmp_path):
    old = report(glb(tmp_path / "old.glb", materials=4), "chair.glb", engine="mobile")
    new = report(glb(tmp_path / "new.glb", materials=10), "chair.glb", engine="mobile")
    diff = diff_reports([old], [new])
    (materials,) = [b for b in diff.files[0].budgets if b.budget == "materials"]
    assert materials.newly_exceeded and (materials.old.used, materials.new.used) == (4, 10)
    assert {r.kind for r in diff.regressions} == {"budget", "finding"}  # BUDGET_MATERIALS too
    assert not diff_reports([new], [new]).worse  # still over is not newly over


def test_one_file_a_side_pairs_whatever_the_names_unless_paired_by_name(tmp_path):
    old = report(glb(tmp_path / "chair_v1.glb"))
    new = report(glb(tmp_path / "chair_v2.glb", triangles=100))
    (entry,) = diff_reports([old], [new]).files
    assert (entry.old_name, entry.new_name, entry.status) == (
        old["filename"],
        new["filename"],
        "changed",
    )
    statuses = [e.status for e in diff_reports([old], [new], by_name=True).files]
    assert statuses == ["added", "removed"]


def test_files_pair_by_name_and_files_on_one_side_are_added_or_removed(tmp_path):
    kept = report(glb(tmp_path / "kept.glb"), "kept.glb")
    gone = report(glb(tmp_path / "gone.glb"), "gone.glb")
    new = report(glb(tmp_path / "new.glb", texcoords=False), "new.glb")
    diff = diff_reports([kept, gone], [new, kept])
    assert [(e.file, e.status) for e in diff.files] == [
        ("new.glb", "added"),
        ("kept.glb", "unchanged"),
        ("gone.glb", "removed"),
    ]
    added = diff.files[0]
    assert {known.code for known in added.added} >= {"MESH_PRIMITIVE_TOO_FEW_TEXCOORDS"}
    assert diff.files[2].fixed and diff.worse  # the added file brings an error


@pytest.mark.parametrize(
    ("threshold", "old", "new", "crossed"),
    [
        ("triangles:+10%", 1000, 1100, False),
        ("triangles:+10%", 1000, 1101, True),
        ("triangles:10%", 0, 1, True),  # growth from nothing crosses any percentage
        ("vertices:+500", 1000, 1500, False),
        ("vertices:+500", 1000, 1501, True),
        ("vertices:+0", 1000, 999, False),
        ("file_size:+2MB", 1_000_000, 3_000_000, False),
        ("file_size:+2MB", 1_000_000, 3_000_001, True),
        ("textures_gpu_memory:+1.5kB", 0, 1_501, True),
    ],
)
def test_a_threshold_is_crossed_by_more_growth_than_it_allows(threshold, old, new, crossed):
    metric = threshold.partition(":")[0]
    assert parse_threshold(threshold).crossed(MetricChange(metric, old, new)) is crossed


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("triangles", "write METRIC:+AMOUNT"),
        ("polygons:+10%", "unknown statistic 'polygons'; choose one of vertices, triangles"),
        ("triangles:-10%", "must be a growth such as +10% or +500"),
        ("triangles:+ten", "must be a growth"),
        ("triangles:+10MB", "unknown unit 'MB' for triangles; use % or none"),
        ("file_size:+10TB", "unknown unit 'TB' for file_size; use %, B, KB, MB, GB or none"),
    ],
)
def test_a_malformed_threshold_is_refused_with_what_to_write(text, says):
    with pytest.raises(ValueError) as refused:
        parse_threshold(text)
    assert says in str(refused.value)


def test_thresholds_judge_files_on_both_sides(tmp_path):
    old = report(glb(tmp_path / "old.glb"), "chair.glb")
    new = report(glb(tmp_path / "new.glb", triangles=300), "chair.glb")
    grown = diff_reports([old], [new], [parse_threshold("triangles:+10%")])
    assert [(r.kind, r.file) for r in grown.regressions] == [("threshold", "chair.glb")]
    assert "triangles:+10%" in grown.regressions[0].message
    assert not diff_reports([old], [new], [parse_threshold("triangles:+50%")]).worse
    assert not diff_reports([], [new], [parse_threshold("triangles:+0")]).worse  # added


CORE_PROGRAM = """
import sys
from assetcheck.diff import diff_reports
from assetcheck.diff.markdown import render_markdown
from assetcheck.diff.text import render_text
render_text(diff_reports([], []))
render_markdown(diff_reports([], []))
print(" ".join(sorted({m.split(".")[0] for m in sys.modules})))
"""


def test_the_comparison_core_loads_no_service_package():
    done = subprocess.run(
        [sys.executable, "-c", CORE_PROGRAM], capture_output=True, text=True, check=True
    )
    assert {"tornado", "peewee"}.isdisjoint(done.stdout.split())


def test_a_count_passing_a_thousand_in_a_message_leaves_the_finding_unchanged(tmp_path):
    # MESH_SEPARATE_PIECES counts the pieces: "1,500 separate pieces", then "500".
    old = report(glb(tmp_path / "old.glb", triangles=1500), "chair.glb")
    new = report(glb(tmp_path / "new.glb", triangles=500), "chair.glb")
    messages = [o["message"] for g in old["issues"] for o in g["occurrences"]]
    assert any("1,500 separate pieces" in message for message in messages)
    (entry,) = diff_reports([old], [new]).files
    assert (entry.added, entry.fixed) == ([], [])


def test_a_report_the_service_trimmed_of_model_files_has_unknown_statistics(tmp_path):
    members = {f"model{n}.glb": gltf_builder(triangles=50 + n).glb() for n in range(8)}
    (tmp_path / "pack.zip").write_bytes(zip_of(members))
    whole = report(tmp_path / "pack.zip", "pack.zip")
    trimmed = cap_report(whole, json_size(whole) // 3)
    assert len(trimmed["result"]["meshes"]) < len(members)
    (entry,) = diff_reports([trimmed], [whole]).files
    triangles = next(change for change in entry.metrics if change.metric == "triangles")
    assert triangles.old is None and triangles.new == sum(50 + n for n in range(8))
    assert not triangles.changed
    assert all(budget.old is None for budget in entry.budgets)
