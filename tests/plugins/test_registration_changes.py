"""A plugin manager's checks and engine profiles are collected once, and follow every plugin
registered, unregistered or blocked between two validations, and every change of its disabled
checks."""

from pathlib import Path

import pytest

from assetcheck import hookimpl
from assetcheck.checks import Check
from assetcheck.engine import validate
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager, registered_checks
from assetcheck.scoring.profiles import (
    BUILTIN_PROFILES,
    EngineProfile,
    UnknownEngineError,
    engine_profiles,
)
from assetcheck.testing.gltf import GltfBuilder, Primitive

QUEST = EngineProfile("quest", "Standalone VR headset", BUILTIN_PROFILES["mobile"].budgets)


class Counting:
    """A plugin with one check that counts the files it saw and a profile; it counts how
    often its ``register_*`` hooks are called."""

    def __init__(self) -> None:
        self.files = 0
        self.asked = {"checks": 0, "profiles": 0}

    @hookimpl
    def register_checks(self) -> list[Check]:
        self.asked["checks"] += 1
        return [Check("counted", "Counts the files it sees", self.count)]

    @hookimpl
    def register_engine_profiles(self) -> list[EngineProfile]:
        self.asked["profiles"] += 1
        return [QUEST]

    def count(self, asset, context) -> None:
        self.files += 1


@pytest.fixture
def glb(tmp_path: Path) -> Path:
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)], name="rock"))
    return builder.write_glb(tmp_path / "rock.glb")


def _ran(result) -> set[str]:
    return {run.name for run in result.checks}


def test_the_checks_and_profiles_are_asked_for_once_for_many_files(glb):
    plugin = Counting()
    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=(plugin,)))
    asked_at_start_up = dict(plugin.asked)
    for _ in range(3):
        validate(glb, engine="quest", plugin_manager=pm)
    assert plugin.files == 3
    assert plugin.asked == {
        "checks": asked_at_start_up["checks"] + 1,
        "profiles": asked_at_start_up["profiles"] + 1,
    }


def test_a_plugin_registered_between_files_runs_from_the_next_file_on(glb):
    pm = get_plugin_manager(PluginConfig(entry_points=False))
    assert "counted" not in _ran(validate(glb, plugin_manager=pm))
    plugin = Counting()
    pm.register(plugin, name="counting")
    assert "counted" in _ran(validate(glb, engine="quest", plugin_manager=pm))
    assert plugin.files == 1 and "quest" in engine_profiles(pm)


def test_a_plugin_unregistered_between_files_no_longer_runs(glb):
    plugin = Counting()
    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=(plugin,)))
    validate(glb, engine="quest", plugin_manager=pm)
    pm.unregister(plugin)
    assert "counted" not in _ran(validate(glb, plugin_manager=pm))
    with pytest.raises(UnknownEngineError, match="quest"):
        validate(glb, engine="quest", plugin_manager=pm)
    assert plugin.files == 1


def test_a_plugin_registered_again_runs_again(glb):
    plugin = Counting()
    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=(plugin,)))
    validate(glb, plugin_manager=pm)
    pm.unregister(plugin)
    validate(glb, plugin_manager=pm)
    pm.register(plugin, name="counting")
    assert "counted" in _ran(validate(glb, engine="quest", plugin_manager=pm))
    assert plugin.files == 2


def test_a_plugin_blocked_between_files_no_longer_runs(glb):
    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=(Counting(),)))
    validate(glb, plugin_manager=pm)
    pm.set_blocked("assetcheck.checks.geometry")
    checks = _ran(validate(glb, plugin_manager=pm))
    assert "mesh-geometry" not in checks and "counted" in checks


def test_checks_disabled_between_files_are_left_out_from_the_next_file_on(glb):
    plugin = Counting()
    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=(plugin,)))
    validate(glb, plugin_manager=pm)
    pm.disabled_checks = frozenset({"counted", "assetcheck.checks.geometry:mesh-geometry"})
    assert not {"counted", "mesh-geometry"} & _ran(validate(glb, plugin_manager=pm))
    pm.disabled_checks = frozenset()
    assert {"counted", "mesh-geometry"} <= _ran(validate(glb, plugin_manager=pm))
    assert plugin.files == 2


def test_the_collected_checks_are_those_every_plugin_answers(glb):
    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=(Counting(),)))
    answered = [
        (impl.plugin_name, check)
        for impl in reversed(pm.hook.register_checks.get_hookimpls())
        for check in impl.function()
    ]
    assert registered_checks(pm) == tuple(answered)
    assert registered_checks(pm) is registered_checks(pm)
