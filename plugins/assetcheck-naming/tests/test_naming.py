"""The naming plugin, installed with pip, through AssetCheck's real engine and config.

Uses only what AssetCheck ships for plugin tests: ``assetcheck.testing`` and its fixtures.
"""

import pytest

from assetcheck.plugins.manager import PluginError
from assetcheck.testing import GltfBuilder, Primitive, png_bytes, validate_bytes

CONVENTION = """
[naming]
mesh = "SM_[A-Za-z]+"
material = "M_[A-Za-z]+"
texture = "T_[A-Za-z]+_(D|N)"
"""


@pytest.fixture
def rock() -> bytes:
    """A GLB with one well-named and one badly named mesh, material and texture."""
    builder = GltfBuilder()
    good = builder.add_material("M_Stone")
    bad = builder.add_material("stone-old")
    builder.add_image(png_bytes(), name="T_Stone_D")
    builder.add_image(png_bytes(), name="diffuse")
    builder.add_node(builder.add_mesh([Primitive(3, material=good)], name="SM_Rock"))
    builder.add_node(builder.add_mesh([Primitive(3, material=bad)], name="rock2"))
    return builder.glb()


def test_installed_plugin_is_loaded_from_its_entry_point(assetcheck_plugin_manager):
    pm = assetcheck_plugin_manager()
    assert pm.get_plugin("naming") is not None
    assert pm.origins["naming"].startswith("package assetcheck-naming")


def test_names_off_the_convention_are_reported_with_their_pointer(assetcheck_plugin_manager, rock):
    result = validate_bytes(rock, plugin_manager=assetcheck_plugin_manager(CONVENTION))
    found = sorted((i.code, i.pointer) for i in result.issues if i.code.startswith("NAMING_"))
    assert found == [
        ("NAMING_MATERIAL", "/materials/1"),
        ("NAMING_MESH", "/meshes/1"),
        ("NAMING_TEXTURE", "/images/1"),
    ]


def test_without_patterns_the_plugin_checks_nothing(
    assetcheck_plugin_manager, assetcheck_issue_codes, rock
):
    codes = assetcheck_issue_codes(rock, plugin_manager=assetcheck_plugin_manager())
    assert not [code for code in codes if code.startswith("NAMING_")]


def test_invalid_pattern_stops_start_up_naming_the_plugin_and_the_key(assetcheck_plugin_manager):
    with pytest.raises(
        PluginError,
        match=r"plugin 'naming' rejected its settings: "
        r".*\[naming\] mesh is not a valid pattern",
    ):
        assetcheck_plugin_manager('[naming]\nmesh = "SM_("\n')
