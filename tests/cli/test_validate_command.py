"""`assetcheck validate`: reports on stdout, errors on stderr, and the documented exit codes."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from assetcheck.cli import main
from assetcheck.testing.gltf import GltfBuilder, Primitive


@pytest.fixture
def good_glb(tmp_path: Path) -> Path:
    builder = GltfBuilder()
    material = builder.add_material()
    quad = Primitive(4, index_count=6, material=material, normals=True)
    builder.add_node(builder.add_mesh([quad], "quad"))
    return builder.write_glb(tmp_path / "quad.glb")


@pytest.fixture
def broken_glb(tmp_path: Path, good_glb: Path) -> Path:
    path = tmp_path / "broken.glb"
    path.write_bytes(good_glb.read_bytes()[:-10])
    return path


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_clean_file_prints_a_table_and_exits_0(capsys, good_glb):
    status, out, _ = run(capsys, "validate", str(good_glb))
    assert status == 0
    assert "quad.glb: excellent (100/100)" in out
    assert "VERTICES" in out and "TRIANGLES" in out


def test_json_format_prints_one_report_for_one_file(capsys, good_glb):
    status, out, _ = run(capsys, "validate", "--format", "json", str(good_glb))
    report = json.loads(out)
    assert status == 0
    assert report["result"]["meshes"][0]["vertexCount"] == 4
    assert report["result"]["meshes"][0]["triangleCount"] == 2


def test_json_format_prints_a_list_for_several_files_named_as_given(
    capsys, monkeypatch, tmp_path, good_glb, broken_glb
):
    monkeypatch.chdir(tmp_path)
    _, out, _ = run(capsys, "validate", "--format", "json", "quad.glb", str(broken_glb))
    assert [r["filename"] for r in json.loads(out)] == ["quad.glb", broken_glb.as_posix()]


def test_junit_format_prints_one_document_with_a_suite_per_file(capsys, good_glb, broken_glb):
    status, out, _ = run(capsys, "validate", "--format", "junit", str(good_glb), str(broken_glb))
    assert status == 1 and out.count("<?xml") == 1
    root = ET.fromstring(out)  # one root element, or this raises
    suites = root.findall("testsuite")
    assert root.tag == "testsuites"
    assert [suite.get("name") for suite in suites] == [str(good_glb), str(broken_glb)]
    assert root.get("tests") == str(sum(int(suite.get("tests")) for suite in suites))
    assert root.get("failures") == suites[1].get("failures") != "0"


def test_text_for_several_files_closes_with_a_summary_line(capsys, tmp_path, good_glb, broken_glb):
    status, out, _ = run(
        capsys, "validate", str(good_glb), str(broken_glb), str(tmp_path / "gone.glb")
    )
    broken = main(["validate", "--format", "json", str(broken_glb)])
    counts = json.loads(capsys.readouterr().out)["summary"]["severityCounts"]
    errors, warnings = counts["error"], counts["warning"]
    assert status == 2 and broken == 1 and errors > 0
    assert out.splitlines()[-1] == (
        f"3 files checked: 1 passed, 1 failed, 1 could not be read; "
        f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}."
    )


def test_text_for_one_file_has_no_summary_line(capsys, good_glb):
    _, out, _ = run(capsys, "validate", str(good_glb))
    assert "files checked" not in out


def test_help_lists_every_built_in_report_format(capsys):
    with pytest.raises(SystemExit):
        main(["validate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "report format: badge, json, junit, markdown, sarif, text (default: text)" in help_text


@pytest.mark.parametrize(
    ("content", "code", "message"),
    [
        (
            b"hello",
            "UNSUPPORTED_FILE_TYPE",
            "fake.glb is not a GLB, glTF, FBX, OBJ, USD or ZIP file",
        ),
        (b"", "EMPTY_FILE", "fake.glb is empty: it has no bytes to read."),
    ],
    ids=["fake", "empty"],
)
def test_a_file_is_typed_by_its_content_not_its_name(capsys, tmp_path, content, code, message):
    fake = tmp_path / "fake.glb"
    fake.write_bytes(content)
    status, out, _ = run(capsys, "validate", "--format", "json", str(fake))
    (group,) = json.loads(out)["issues"]
    assert status == 1 and group["code"] == code
    assert message in group["occurrences"][0]["message"]


def test_errors_found_exit_1(capsys, broken_glb):
    status, out, _ = run(capsys, "validate", str(broken_glb))
    assert status == 1
    assert "GLB_" in out


def test_score_under_fail_under_exits_1_even_without_errors(capsys, tmp_path, good_glb):
    renamed = tmp_path / "quad.fbx"  # a GLB named .fbx: a FILE_TYPE_MISMATCH warning, no error
    renamed.write_bytes(good_glb.read_bytes())
    status, out, _ = run(capsys, "validate", "--format", "json", str(renamed))
    score = json.loads(out)["health_score"]
    assert status == 0 and score < 100
    assert run(capsys, "validate", str(renamed), "--fail-under", str(score))[0] == 0
    assert run(capsys, "validate", str(renamed), "--fail-under", str(score + 1))[0] == 1


def test_markdown_format_renders_the_report(capsys, good_glb):
    status, out, _ = run(capsys, "validate", "--format", "markdown", str(good_glb))
    assert status == 0 and out.startswith("# ") and "| File |" in out


def test_missing_path_is_a_usage_error_naming_it(capsys, tmp_path, good_glb):
    status, out, err = run(capsys, "validate", str(good_glb), str(tmp_path / "nope.glb"))
    assert status == 2
    assert "nope.glb: not a readable file" in err
    assert "quad.glb" in out


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--engine", "playstation1", "unknown engine 'playstation1': choose one of"),
        ("--format", "pdf", "unknown format 'pdf'"),
        ("--fail-under", "101", "--fail-under takes a score from 0 to 100"),
        ("--dimensions", "0.6x0.9", "give width, height and depth in metres as WxHxD"),
        ("--dimensions", "0.6xabcx0.4", "the height 'abc' is not a number of metres"),
        ("--dimensions", "0x1x1", "width must be more than 0"),
        ("--dimensions", "1x1x1e9", "at most 10,000 metres"),
    ],
)
def test_bad_options_are_usage_errors_that_say_why(capsys, good_glb, option, value, message):
    status, _, err = run(capsys, "validate", option, value, str(good_glb))
    assert status == 2 and message in err


def test_dimensions_are_compared_with_the_model(capsys, good_glb):
    # The quad is 3 m wide and flat: a width of 1 m is far off, its height is not given.
    status, out, _ = run(
        capsys, "validate", "--format", "json", "--dimensions", "1x-x-", str(good_glb)
    )
    (group,) = [g for g in json.loads(out)["issues"] if g["code"] == "MODEL_DIMENSIONS_MISMATCH"]
    assert "width 3 m instead of 1 m" in json.dumps(group)
    assert status == 0  # a warning


def test_a_store_profile_is_chosen_by_its_name(capsys, good_glb):
    _, out, _ = run(
        capsys, "validate", "--format", "json", "--engine", "3d-commerce", str(good_glb)
    )
    assert json.loads(out)["engine"]["budgets"]["file_size_mb"] == 5


def test_unreadable_config_is_a_usage_error(capsys, tmp_path, good_glb):
    status, _, err = run(capsys, "validate", "--config", str(tmp_path / "x.toml"), str(good_glb))
    assert status == 2 and "cannot read config file" in err


def test_console_script_runs_as_a_real_process(good_glb):
    script = Path(sys.executable).with_name("assetcheck")
    done = subprocess.run(
        [script, "validate", "--format", "json", good_glb],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["grade"] == "excellent"
    assert done.stderr == ""  # no progress bar when stderr is not a terminal
