"""The registry of file formats: what a format must declare, which format content belongs to,
and how the formats are named in messages (``assetcheck/formats/registry.py``)."""

import pytest

from assetcheck import hookimpl
from assetcheck.engine import validate
from assetcheck.formats.registry import FileFormat, FormatRegistry, format_registry
from assetcheck.plugins.manager import PluginConfig, get_plugin_manager
from tests.builtin_formats import builtin_formats


def text_format(name: str, *extensions: str, container: bool = False) -> FileFormat:
    return FileFormat(
        name,
        name.upper(),
        extensions or (f".{name}",),
        recognise=lambda head: head.startswith(name.encode()),
        members=(lambda source, context: iter(())) if container else None,
    )


def test_the_builtin_formats_are_registered_in_the_order_they_were_sniffed_in():
    assert [f.name for f in builtin_formats()] == ["glb", "gltf", "fbx", "obj", "usd", "zip"]
    assert builtin_formats().model_formats == {"glb", "gltf", "fbx", "obj", "usd"}
    assert builtin_formats().extensions == {
        ".glb",
        ".gltf",
        ".fbx",
        ".obj",
        ".usdz",
        ".usd",
        ".usda",
        ".usdc",
        ".zip",
    }


def test_every_magic_is_tried_before_any_recognise_test():
    everything = FileFormat("any", "Any", (".any",), recognise=lambda head: True)
    strict = FileFormat("strict", "Strict", (".strict",), magic=(b"STRICT",))
    formats = FormatRegistry([everything, strict])
    assert formats.sniff(b"STRICT 1") == "strict"
    assert formats.sniff(b"anything else") == "any"


def test_a_format_that_refines_another_takes_the_content_its_test_accepts():
    container = FileFormat("box", "Box", (".box",), magic=(b"BOX",))
    special = FileFormat(
        "gift", "Gift", (".gift",), recognise=lambda head: b"bow" in head, refines="box"
    )
    formats = FormatRegistry([special, container])
    assert formats.sniff(b"BOX with a bow") == "gift"
    assert formats.sniff(b"BOX of tools") == "box"
    assert formats.sniff(b"a bow alone") == "gift"
    with pytest.raises(ValueError, match="refines another"):
        FileFormat("gift", "Gift", (".gift",), magic=(b"G",), refines="box")


@pytest.mark.parametrize("clash", [text_format("glb", ".glb2"), text_format("glb2", ".glb")])
def test_a_plugin_format_cannot_take_a_builtin_name_or_extension(tmp_path, clash):
    class Clash:
        @hookimpl
        def register_file_formats(self):
            return [clash]

    model = tmp_path / "model.glb"
    model.write_bytes(b"glTF")
    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=(Clash(),)))
    with pytest.raises(ValueError, match="glb"):
        validate(model, plugin_manager=pm)


@pytest.mark.parametrize(
    "arguments",
    [
        ("Mesh", "Mesh", (".mesh",)),  # a name that is not lower case
        ("mesh", "Mesh", ()),  # no extension
        ("mesh", "Mesh", ("mesh",)),  # an extension without its dot
        ("mesh", "Mesh", (".MESH",)),  # an extension that is not lower case
    ],
)
def test_a_format_declared_wrongly_is_refused(arguments):
    with pytest.raises(ValueError):
        FileFormat(*arguments, magic=(b"MESH",))


def test_a_format_without_magic_or_recognise_test_is_refused():
    with pytest.raises(ValueError, match="magic or a recognise test"):
        FileFormat("mesh", "Mesh", (".mesh",))


@pytest.mark.parametrize(
    ("formats", "fields"),
    [
        (["a"], ("A", "A", "")),
        (["a", "b"], ("A or B", "A or B", "")),
        (["a", "b", "c", "z/"], ("A, B, C or Z", "A, B or C", "Z")),
    ],
)
def test_messages_name_the_formats_as_a_list_ending_in_or(formats, fields):
    registry = FormatRegistry(
        text_format(name.rstrip("/"), container=name.endswith("/")) for name in formats
    )
    names = registry.message_fields()
    assert (names["formats"], names["model_formats"], names["container_formats"]) == fields


def test_the_registry_is_built_once_per_plugin_manager():
    pm = get_plugin_manager(PluginConfig(entry_points=False))
    assert format_registry(pm) is format_registry(pm)
