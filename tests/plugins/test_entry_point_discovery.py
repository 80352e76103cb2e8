"""Finding the ``assetcheck`` entry points by reading distributions' metadata directly."""

import sys
from pathlib import Path

import pytest

from assetcheck.plugins.entry_points import entry_points


def distribution(site: Path, folder: str, metadata: str, entry_points_txt: str) -> None:
    (site / folder).mkdir(parents=True)
    name = "PKG-INFO" if folder.endswith(".egg-info") else "METADATA"
    (site / folder / name).write_text(metadata)
    (site / folder / "entry_points.txt").write_text(entry_points_txt)


def test_entry_points_of_the_group_with_their_distribution_first_on_the_path_winning(
    tmp_path: Path,
):
    first, second = tmp_path / "first", tmp_path / "second"
    distribution(
        first,
        "studio_rules-2.0.dist-info",
        "Metadata-Version: 2.1\nName: Studio.Rules\nVersion: 2.0\n\nName: not me\n",
        "[console_scripts]\nrules = studio:main\n\n[assetcheck]\n"
        "studio = studio_plugin:plugin [extra]\n# a comment\n",
    )
    distribution(
        second,
        "studio_rules-1.0.dist-info",
        "Name: studio-rules\nVersion: 1.0\n",
        "[assetcheck]\nold = studio_old\n",
    )
    distribution(
        second,
        "legacy.egg-info",
        "Metadata-Version: 1.0\nName: legacy\n",
        "[assetcheck]\nlegacy = legacy_plugin\n",
    )
    found = entry_points("assetcheck", [str(first), str(second), str(tmp_path / "missing")])
    assert [(e.name, e.value, e.distribution, e.version) for e in found] == [
        ("studio", "studio_plugin:plugin", "Studio.Rules", "2.0"),
        ("legacy", "legacy_plugin", "legacy", None),
    ]


def test_an_entry_point_loads_the_object_it_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    distribution(
        tmp_path,
        "deep-1.0.dist-info",
        "Name: deep\nVersion: 1.0\n",
        "[assetcheck]\ndeep = deep_plugin:holder.plugin\n",
    )
    (tmp_path / "deep_plugin.py").write_text("class holder:\n    plugin = 'the plugin object'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "deep_plugin", raising=False)
    (deep,) = [e for e in entry_points("assetcheck") if e.name == "deep"]
    assert deep.load() == "the plugin object"
