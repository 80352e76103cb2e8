"""`assetcheck validate --baseline REPORT [--update-baseline]`: a repository with known findings
gates only on new ones, through the real CLI, with a JSON or a SARIF baseline."""

import json
from pathlib import Path

import pytest

from assetcheck.cli import main
from assetcheck.testing.gltf import GltfBuilder, Primitive
from tests.reports.test_sarif import multitool_findings, needs_multitool, schema_errors

FILES = 50


def quad_glb(path: Path, name: str) -> Path:
    """A quad without normals: valid, with a MESH_MISSING_NORMALS warning."""
    builder = GltfBuilder()
    quad = Primitive(4, index_count=6, material=builder.add_material())
    builder.add_node(builder.add_mesh([quad], name), name)
    return builder.write_glb(path)


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``assets/`` of 50 models with findings: warnings in each, errors in every tenth (cut)."""
    for number in range(FILES):
        path = quad_glb(tmp_path / "assets" / f"set{number % 5}" / f"prop{number:02}.glb", "prop")
        if number % 10 == 0:
            path.write_bytes(path.read_bytes()[:-10])
    monkeypatch.chdir(tmp_path)
    return Path("assets")


def validate(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["validate", "--jobs", "1", *args])
    out, err = capsys.readouterr()
    return status, out, err


def baseline_line(text: str) -> str:
    (line,) = [line for line in text.splitlines() if line.startswith("Baseline ")]
    return line


@pytest.mark.parametrize("name", ["baseline.sarif", "baseline.json"])
def test_a_repository_with_findings_is_green_with_its_baseline_red_for_a_new_error_green_once_fixed(
    capsys, repository, name
):
    assert validate(capsys, "assets")[0] == 1  # it has errors

    status, out, _ = validate(capsys, "assets", "--baseline", name, "--update-baseline")
    assert status == 0 and "; written." in baseline_line(out)
    written = json.loads(Path(name).read_text())
    assert ("runs" in written) == name.endswith(".sarif")

    status, out, _ = validate(capsys, "assets", "--baseline", name)
    assert status == 0
    assert baseline_line(out).endswith(": 0 new, 50 unchanged, 0 fixed.")  # 45 warnings, 5 errors

    gaining = repository / "set1" / "prop11.glb"
    good = gaining.read_bytes()
    gaining.write_bytes(good[:-10])
    status, out, _ = validate(capsys, "assets", "--baseline", name)
    assert status == 1
    new = [line for line in out.splitlines() if line.startswith("new: ")]
    fixed = [line for line in out.splitlines() if line.startswith("fixed: ")]
    assert new and all(line.startswith("new: assets/set1/prop11.glb: error ") for line in new)
    assert [line.split(": ")[2] for line in fixed] == ["warning MESH_MISSING_NORMALS"]
    assert fixed[0].startswith("fixed: assets/set1/prop11.glb: ")  # it can no longer be read

    gaining.write_bytes(good)
    status, out, _ = validate(capsys, "assets", "--baseline", name)
    assert status == 0
    assert baseline_line(out).endswith(": 0 new, 50 unchanged, 0 fixed.")


def sarif_with_a_new_error(capsys, repository: Path) -> tuple[int, dict, str]:
    """The SARIF log of a run against a SARIF baseline after prop11.glb gained an error."""
    validate(capsys, "assets", "--baseline", "baseline.sarif", "--update-baseline")
    gaining = repository / "set1" / "prop11.glb"
    gaining.write_bytes(gaining.read_bytes()[:-10])
    status, out, err = validate(
        capsys, "assets", "--format", "sarif", "--baseline", "baseline.sarif"
    )
    return status, json.loads(out), err


def test_the_sarif_output_says_the_baseline_state_of_each_result_and_stays_valid_sarif(
    capsys, repository
):
    status, log, err = sarif_with_a_new_error(capsys, repository)
    assert status == 1 and schema_errors(log) == []
    assert baseline_line(err).endswith(": 1 new, 49 unchanged, 1 fixed.")  # stdout is the log
    states = {
        (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], r["ruleId"]): (
            r["baselineState"],
            tuple(o["baselineState"] for o in r["properties"]["occurrences"]),
        )
        for r in log["runs"][0]["results"]
    }
    assert states.pop(("assets/set1/prop11.glb", "GLB_UNEXPECTED_END_OF_CHUNK_DATA")) == (
        "new",
        ("new",),
    )
    assert len(states) == 49 and set(states.values()) == {("unchanged", ("unchanged",))}
    assert all(r["partialFingerprints"] for r in log["runs"][0]["results"])


@needs_multitool
def test_microsofts_sarif_validator_accepts_the_baseline_and_the_compared_run(
    capsys, repository, tmp_path
):
    _, log, _ = sarif_with_a_new_error(capsys, repository)
    compared = tmp_path / "compared.sarif"
    compared.write_text(json.dumps(log), encoding="utf-8")
    findings = multitool_findings([Path("baseline.sarif"), compared], tmp_path / "validation.sarif")
    assert findings == [], [r["message"] for r in findings]


def test_a_json_run_against_a_baseline_prints_one_json_document_and_the_counts_on_stderr(
    capsys, repository
):
    validate(capsys, "assets", "--baseline", "baseline.json", "--update-baseline")
    status, out, err = validate(capsys, "assets", "--format", "json", "--baseline", "baseline.json")
    reports = json.loads(out)
    assert status == 0 and len(reports) == FILES
    states = {o["baselineState"] for r in reports for g in r["issues"] for o in g["occurrences"]}
    assert states == {"unchanged"}
    assert baseline_line(err).endswith(": 0 new, 50 unchanged, 0 fixed.")


def test_findings_of_files_the_run_did_not_check_are_not_fixed(capsys, repository):
    validate(capsys, "assets", "--baseline", "baseline.sarif", "--update-baseline")
    status, out, _ = validate(capsys, "assets/set2", "--baseline", "baseline.sarif")
    assert status == 0
    assert baseline_line(out).endswith(": 0 new, 10 unchanged, 0 fixed.")


def test_update_baseline_accepts_the_new_findings_and_the_next_run_knows_them(capsys, repository):
    status, out, _ = validate(capsys, "assets", "--baseline", "b.sarif", "--update-baseline")
    assert status == 0 and baseline_line(out).endswith(": 50 new, 0 unchanged, 0 fixed; written.")
    assert validate(capsys, "assets", "--baseline", "b.sarif")[0] == 0


@pytest.mark.parametrize(
    ("args", "content", "message"),
    [
        (["--baseline", "missing.json"], None, "baseline missing.json does not exist"),
        (["--update-baseline"], None, "--update-baseline needs --baseline FILE"),
        (["--baseline", "notes.json"], "hello", "baseline notes.json is no report"),
        (["--baseline", "notes.json"], '{"some": "json"}', "baseline notes.json is no report"),
        (["--baseline", "notes.json"], '{"runs": [{"results": [{}]}]}', "is no report"),
    ],
)
def test_a_missing_or_foreign_baseline_is_a_usage_error_that_says_so(
    capsys, repository, args, content, message
):
    if content is not None:
        Path("notes.json").write_text(content)
    status, out, err = validate(capsys, "assets/set0/prop05.glb", *args)
    assert status == 2 and out == ""
    assert err.startswith("assetcheck validate: ") and message in err


def test_update_baseline_leaves_the_baseline_as_it_was_when_a_path_cannot_be_read(
    capsys, repository
):
    validate(capsys, "assets", "--baseline", "b.json", "--update-baseline")
    before = Path("b.json").read_bytes()
    (repository / "set3" / "prop03.glb").unlink()
    status, out, err = validate(
        capsys, "assets", "missing.glb", "--baseline", "b.json", "--update-baseline"
    )
    assert status == 2 and "missing.glb" in err
    assert "; not written, as a path could not be read." in baseline_line(out)
    assert Path("b.json").read_bytes() == before


def test_a_baseline_that_cannot_be_written_is_a_usage_error_that_says_so(capsys, repository):
    Path(".b.sarif.new").mkdir()  # where the new baseline is written before it replaces the old
    status, _, err = validate(capsys, "assets/set0", "--baseline", "b.sarif", "--update-baseline")
    assert status == 2 and "assetcheck validate: baseline b.sarif cannot be written" in err
    assert not Path("b.sarif").exists()


def test_names_from_a_file_are_printed_without_their_terminal_escapes(capsys, tmp_path):
    model = quad_glb(tmp_path / "evil.glb", "\x1b[2Jwiped")
    baseline = tmp_path / "b.json"
    status, out, _ = validate(capsys, str(model), "--baseline", str(baseline), "--update-baseline")
    (line,) = [line for line in out.splitlines() if line.startswith("new: ")]
    assert status == 0 and "\x1b" not in out and "Mesh \\u001b[2Jwiped has no" in line
