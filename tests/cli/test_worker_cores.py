"""``validate --jobs N`` workers take their share of the cores for a big mesh's threads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from assetcheck import hookimpl
from assetcheck.asset.options import ValidationOptions
from assetcheck.checks import Check
from assetcheck.cli.parallel import validate_files
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from assetcheck.sandbox.cores import available_cores, thread_cores

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="workers are forked")
ASSETS = Path(__file__).resolve().parents[1] / "assets" / "topology"


class CoresPlugin:
    """A check that writes into ``folder``, under its process's id, the cores that process's
    threads may take."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    @hookimpl
    def register_checks(self):
        def record(asset, context):
            (self.folder / str(os.getpid())).write_text(str(thread_cores()))

        return [Check("cores", "Records the thread cores", record)]


def recorded(folder: Path) -> dict[int, int]:
    return {int(path.name): int(path.read_text()) for path in folder.iterdir()}


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_each_of_n_workers_takes_its_share_of_the_cores_and_one_process_all(tmp_path, jobs):
    files = [ASSETS / "closed_cube.glb"] * 6
    folder = tmp_path / "cores"
    folder.mkdir()
    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=[CoresPlugin(folder)]))
    with validate_files(files, ValidationOptions(), pm, jobs) as outcomes:
        assert all(outcome.report is not None for outcome in outcomes)
    cores = available_cores()
    if jobs == 1:  # validated in this process, which declared no share
        assert recorded(folder) == {os.getpid(): cores}
    else:
        assert set(recorded(folder).values()) == {max(cores // jobs, 1)}
        assert os.getpid() not in recorded(folder)
