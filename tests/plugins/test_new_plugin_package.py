"""``assetcheck plugins new`` writes a package that passes its own tests against the installed
wheel, with nothing from this repository's ``tests/`` (the checkout is out of sight)."""

from __future__ import annotations

from pathlib import Path

import pytest

from assetcheck.cli import main
from assetcheck.scaffold import PluginNames
from tests.wheels import IsolatedPython, build_wheel


@pytest.mark.slow
def test_a_new_plugin_package_passes_its_own_tests_against_the_installed_wheel(tmp_path: Path):
    pytest.importorskip("hatchling", reason="building offline needs hatchling (test extras)")
    assert main(["plugins", "new", "studio-textures", "--dir", str(tmp_path)]) == 0
    package = tmp_path / "studio-textures"
    python = IsolatedPython(tmp_path / "isolated")
    python.install(build_wheel(tmp_path / "wheel"), package)

    done = python.run("-m", "pytest", "-p", "no:cacheprovider", cwd=package, check=False)

    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout
    header = next(line for line in done.stdout.splitlines() if line.startswith("assetcheck "))
    assert str(python.site_packages()) in header  # the wheel's copy, not the checkout


@pytest.mark.slow
def test_the_isolated_python_sees_no_checkout_and_no_example_plugin(tmp_path: Path):
    python = IsolatedPython(tmp_path)
    probe = (
        "import importlib.util as u; print([u.find_spec(m) is None for m in "
        "('assetcheck', 'tests', 'assetcheck_naming', 'pytest')])"
    )
    assert python.run("-c", probe).stdout.strip() == "[True, True, True, False]"


def test_new_writes_the_package_with_its_entry_point_check_and_tests(tmp_path: Path, capsys):
    assert main(["plugins", "new", "assetcheck-studio-textures", "--dir", str(tmp_path)]) == 0
    root = tmp_path / "assetcheck-studio-textures"
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert files == [
        "README.md",
        "assetcheck_studio_textures/__init__.py",
        "pyproject.toml",
        "tests/test_plugin.py",
    ]
    entry_point = 'studio_textures = "assetcheck_studio_textures:plugin"'
    pyproject = (root / "pyproject.toml").read_text()
    assert f"[project.entry-points.assetcheck]\n{entry_point}" in pyproject
    assert "STUDIO_TEXTURES_TEXTURE_TOO_LARGE" in (root / "tests/test_plugin.py").read_text()
    assert "pip install -e" in capsys.readouterr().out


def test_new_refuses_an_existing_folder_and_a_name_no_package_can_have(tmp_path: Path, capsys):
    (tmp_path / "taken").mkdir()
    assert main(["plugins", "new", "taken", "--dir", str(tmp_path)]) == 2
    assert main(["plugins", "new", "2fast", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"assetcheck plugins new: {tmp_path / 'taken'} exists",
        "assetcheck plugins new: '2fast' cannot name a plugin package: use letters "
        "and digits, words joined by - or _, starting with a letter",
    ]


def test_a_table_name_with_underscores_gets_the_unambiguous_environment_variable():
    assert PluginNames.from_name("studio").env_variable == "ASSETCHECK_STUDIO_MAX_TEXTURE_SIZE"
    assert (
        PluginNames.from_name("studio-rules").env_variable
        == "ASSETCHECK_STUDIO_RULES__MAX_TEXTURE_SIZE"
    )
