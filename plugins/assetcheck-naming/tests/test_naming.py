"""The naming plugin, installed with pip, through AssetCheck's real engine and config."""

from pathlib import Path

import pytest

from assetcheck.config import load_config
from assetcheck.engine import validate
from assetcheck.plugins import get_plugin_manager
from tests.builders.gltf import GltfBuilder, Primitive, png_bytes

CONVENTION = """
[naming]
mesh = "SM_[A-Za-z]+"
material = "M_[A-Za-z]+"
texture = "T_[A-Za-z]+_(D|N)"
"""


@pytest.fixture
def asset(tmp_path: Path) -> Path:
    builder = GltfBuilder()
    good = builder.add_material("M_Stone")
    bad = builder.add_material("stone-old")
    builder.add_image(png_bytes(), name="T_Stone_D")
    builder.add_image(png_bytes(), name="diffuse")
    builder.add_node(builder.add_mesh([Primitive(3, material=good)], name="SM_Rock"))
    builder.add_node(builder.add_mesh([Primitive(3, material=bad)], name="rock2"))
    return builder.write_glb(tmp_path / "rock.glb")


def manager(tmp_path: Path, text: str):
    path = tmp_path / "assetcheck.toml"
    path.write_text(text)
    return get_plugin_manager(load_config(path, environ={}).plugin_config())


def test_installed_plugin_is_loaded_from_its_entry_point(tmp_path):
    assert manager(tmp_path, "").get_plugin("naming") is not None


def test_names_off_the_convention_are_reported_with_their_pointer(tmp_path, asset):
    result = validate(asset, plugin_manager=manager(tmp_path, CONVENTION))
    found = sorted((i.code, i.pointer) for i in result.issues if i.code.startswith("NAMING_"))
    assert found == [("NAMING_MATERIAL", "/materials/1"), ("NAMING_MESH", "/meshes/1"),
                     ("NAMING_TEXTURE", "/images/1")]


def test_without_patterns_the_plugin_checks_nothing(tmp_path, asset):
    result = validate(asset, plugin_manager=manager(tmp_path, ""))
    assert not [i for i in result.issues if i.code.startswith("NAMING_")]


def test_invalid_pattern_stops_start_up_naming_the_key(tmp_path):
    with pytest.raises(ValueError, match=r"\[naming\] mesh is not a valid pattern"):
        manager(tmp_path, '[naming]\nmesh = "SM_("\n')

