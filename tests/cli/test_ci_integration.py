"""What CI users copy: the pre-commit hooks and the GitHub Actions workflow of ``docs/ci.md``."""

import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from assetcheck.cli import build_parser, main
from assetcheck.testing.gltf import GltfBuilder, Primitive

ROOT = Path(__file__).resolve().parents[2]
HOOKS = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]


def workflow() -> dict:
    """The GitHub Actions workflow shown in docs/ci.md."""
    text = (ROOT / "docs" / "ci.md").read_text()
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "jobs:" in b]
    return yaml.safe_load(block)


def quad_glb(path: Path) -> Path:
    builder = GltfBuilder()
    quad = Primitive(4, index_count=6, material=builder.add_material(), normals=True)
    builder.add_node(builder.add_mesh([quad], "quad"))
    return builder.write_glb(path)


@pytest.mark.parametrize("hook", HOOKS, ids=[hook["id"] for hook in HOOKS])
def test_each_pre_commit_hook_runs_a_real_command_with_valid_arguments(hook):
    assert {"id", "name", "entry", "language", "files"} <= hook.keys()
    assert hook["language"] == "python"  # pre-commit pip-installs this repository
    script, *arguments = shlex.split(hook["entry"])
    assert script in SCRIPTS
    args = build_parser("validate").parse_args([*arguments, "staged.glb"])
    assert args.command == "validate" and args.jobs == 1
    files = re.compile(hook["files"])
    assert all(files.search(name) for name in ("a/b.glb", "B.GLTF", "c.fbx", "pack.Zip"))
    assert not any(files.search(name) for name in ("wood.png", "scene.bin", "glb.txt"))


def test_the_hook_entry_fails_a_commit_only_for_a_file_with_errors(tmp_path):
    good = quad_glb(tmp_path / "good.glb")
    broken = tmp_path / "broken.glb"
    broken.write_bytes(good.read_bytes()[:-10])
    script, *arguments = shlex.split(HOOKS[0]["entry"])
    command = [str(Path(sys.executable).with_name(script)), *arguments]
    passing = subprocess.run([*command, str(good)], capture_output=True, text=True, check=False)
    failing = subprocess.run(
        [*command, str(good), str(broken)], capture_output=True, text=True, check=False
    )
    assert passing.returncode == 0, passing.stderr
    assert failing.returncode == 1 and "broken.glb" in failing.stdout


def test_the_workflow_uploads_the_sarif_file_the_validation_step_writes():
    steps = workflow()["jobs"]["assetcheck"]["steps"]
    (validation,) = [s for s in steps if "assetcheck validate" in s.get("run", "")]
    command, target = validation["run"].split(">")
    script, *arguments = shlex.split(command)
    args = build_parser("validate").parse_args(arguments)
    assert script in SCRIPTS and args.output_format == "sarif"
    (upload,) = [
        s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")
    ]
    assert upload["with"]["sarif_file"] == target.strip()
    assert "failure()" in upload["if"]  # the findings are uploaded when validation fails too
    assert workflow()["permissions"]["security-events"] == "write"


def test_the_workflow_gates_on_the_baseline_the_documented_command_writes(
    tmp_path, monkeypatch, capsys
):
    text = (ROOT / "docs" / "ci.md").read_text()
    (block,) = [b for b in re.findall(r"```sh\n(.*?)```", text, re.S) if "--update-baseline" in b]
    commands = [shlex.split(line) for line in block.splitlines() if line.startswith("assetcheck")]
    steps = workflow()["jobs"]["assetcheck"]["steps"]
    (validation,) = [s for s in steps if "assetcheck validate" in s.get("run", "")]
    workflow_args = shlex.split(validation["run"].split(">")[0])[1:]
    at = workflow_args.index("--format")
    without_format = workflow_args[:at] + workflow_args[at + 2 :]
    # The same paths, engine and baseline as the workflow's, with the text format.
    assert [c[1:] for c in commands] == [[*without_format, "--update-baseline"], without_format]
    monkeypatch.chdir(tmp_path)
    quad_glb(tmp_path / "assets" / "good.glb")
    broken = tmp_path / "assets" / "broken.glb"
    broken.write_bytes((tmp_path / "assets" / "good.glb").read_bytes()[:-10])
    assert main([*commands[0][1:], "--jobs", "1"]) == 0
    assert main([*workflow_args, "--jobs", "1"]) == 0  # known errors only
    broken.with_name("worse.glb").write_bytes(broken.read_bytes())
    assert main([*workflow_args, "--jobs", "1"]) == 1
    assert "new: assets/worse.glb: error" in capsys.readouterr().err


def pull_request_steps() -> list[dict]:
    """The steps of docs/ci.md's "Pull-request comment"."""
    text = (ROOT / "docs" / "ci.md").read_text()
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "assetcheck diff" in b]
    return yaml.safe_load(block)


def test_the_pull_request_comment_is_the_markdown_the_documented_diff_writes(
    tmp_path, monkeypatch, capsys
):
    steps = pull_request_steps()
    (comparison,) = [s for s in steps if "assetcheck diff" in s.get("run", "")]
    (comment,) = [s for s in steps if "gh pr comment" in s.get("run", "")]
    command, target = comparison["run"].split(">")
    assert f"--body-file {target.strip()}" in comment["run"] and "failure()" in comment["if"]
    base = tmp_path / "runner"
    script, *arguments = shlex.split(command.replace("$RUNNER_TEMP", str(base)))
    args = build_parser("diff").parse_args(arguments)
    assert script in SCRIPTS and args.output_format == "markdown"
    monkeypatch.chdir(tmp_path)
    quad_glb(base / "base" / "assets" / "quad.glb")
    quad_glb(tmp_path / "assets" / "quad.glb")
    assert main([*arguments, "--jobs", "1"]) == 0
    assert "no changes" in capsys.readouterr().out
    quad_glb(tmp_path / "assets" / "new.glb")
    assert main([*arguments, "--jobs", "1"]) == 0
    assert "| new.glb | 🆕 added |" in capsys.readouterr().out
