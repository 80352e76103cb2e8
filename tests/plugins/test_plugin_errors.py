"""Every plugin load or configuration error is one line naming the plugin and the fix, and the
command line exits 2 (a usage error), never 1 (errors found in the asset) with a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from assetcheck.cli import main
from assetcheck.testing import GltfBuilder, Primitive

TYPO = """
from assetcheck import hookimpl

@hookimpl
def register_chekcs():
    return []
"""

BROKEN_IMPORT = "import a_module_nobody_installed\n"

PICKY = """
from assetcheck import hookimpl

@hookimpl
def configure(settings):
    if settings.get("picky", {}).get("level") not in (1, 2):
        raise ValueError("[picky] level must be 1 or 2")
"""


@pytest.fixture
def model(tmp_path: Path) -> Path:
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, normals=True)]))
    return builder.write_glb(tmp_path / "model.glb")


def run_validate(
    tmp_path: Path,
    model: Path,
    config: str,
    plugins: dict[str, str],
    capsys: pytest.CaptureFixture[str],
) -> tuple[int, list[str]]:
    """``assetcheck validate`` with ``config`` and a plugins folder ``rules`` of ``plugins``."""
    rules = tmp_path / "rules"
    rules.mkdir()
    for name, source in plugins.items():
        (rules / f"{name}.py").write_text(source)
    path = tmp_path / "assetcheck.toml"
    path.write_text(config)
    status = main(["validate", "--config", str(path), str(model)])
    return status, capsys.readouterr().err.splitlines()


CASES = {
    "misspelled hook": (
        '[plugins]\ndir = "rules"\n',
        {"studio": TYPO},
        "assetcheck: plugin 'studio' implements 'register_chekcs', which is not an AssetCheck "
        "hook (did you mean 'register_checks'?): rename the function to a hook of "
        "docs/hooks.md",
    ),
    "bad plugin setting": (
        '[plugins]\ndir = "rules"\n[picky]\nlevel = 3\n',
        {"picky": PICKY},
        "assetcheck: plugin 'picky' rejected its settings: ValueError: [picky] level must be 1 "
        "or 2; fix the plugin's table in the config file, or block it with [plugins] disabled "
        "= ['picky']",
    ),
    "plugin that cannot import": (
        '[plugins]\ndir = "rules"\n',
        {"studio": BROKEN_IMPORT},
        "plugin 'studio' (file {rules}/studio.py) failed to load: ModuleNotFoundError: No "
        "module named 'a_module_nobody_installed'; fix it, or block it with [plugins] disabled "
        "= ['studio']",
    ),
    "missing plugins folder": (
        '[plugins]\ndir = "no-such-folder"\n',
        {},
        "assetcheck: [plugins] dir '{tmp}/no-such-folder' is not a folder: create it, or "
        "correct the path (a relative path is read from the config file's folder)",
    ),
    "blocked issue registry": (
        '[plugins]\ndisabled = ["assetcheck.codes"]\n',
        {},
        "assetcheck: plugin 'assetcheck.codes' cannot be disabled: the engine and the built-in "
        "checks report its issue codes (to stop reporting a code, use [engines.<name>] ignore); "
        "remove it from [plugins] disabled",
    ),
    "blocked scoring with no replacement": (
        '[plugins]\ndisabled = ["assetcheck.scoring"]\n',
        {},
        "assetcheck: no plugin implements compute_health_score: plugin 'assetcheck.scoring' is "
        "disabled and nothing replaces it; remove it from [plugins] disabled, or install a "
        "plugin that implements compute_health_score",
    ),
    "crash setting of another value": (
        '[plugins]\ncrash = "ignore"\n',
        {},
        "assetcheck: config key plugins.crash must be one of 'warning', 'error'",
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_plugin_and_configuration_errors_are_one_line_and_exit_2(case, tmp_path, model, capsys):
    config, plugins, expected = CASES[case]
    status, err = run_validate(tmp_path, model, config, plugins, capsys)
    assert status == 2
    expected = expected.format(rules=tmp_path / "rules", tmp=tmp_path)
    assert len(err) == 1 and err[0].endswith(expected), err


def test_a_real_process_prints_no_traceback_for_a_plugin_error(tmp_path, model):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "studio.py").write_text(TYPO)
    config = tmp_path / "assetcheck.toml"
    config.write_text('[plugins]\ndir = "rules"\n')
    script = Path(sys.executable).with_name("assetcheck")
    done = subprocess.run(
        [script, "validate", "--config", str(config), str(model)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
