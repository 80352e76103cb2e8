"""Recognising programs and scripts by their first bytes and by their names."""

import struct

import pytest

from assetcheck.security.content import executable_kind
from assetcheck.testing.zip import elf_program, tiny_glb


def pe_program(header_offset: int = 0x80) -> bytes:
    """The start of a Windows executable: ``MZ``, the PE header offset at 0x3C, ``PE\\0\\0``."""
    head = bytearray(b"MZ" + bytes(header_offset + 64))
    struct.pack_into("<I", head, 0x3C, header_offset)
    head[header_offset : header_offset + 4] = b"PE\0\0"
    return bytes(head)


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (elf_program(), "ELF executable"),
        (pe_program(), "Windows (PE) executable"),
        (b"\xcf\xfa\xed\xfe" + bytes(28), "Mach-O executable"),
        (b"\xfe\xed\xfa\xce" + bytes(28), "Mach-O executable"),
        (b"\xca\xfe\xba\xbe" + bytes(28), "Mach-O universal binary or Java class"),
        (b"#!/bin/sh\necho hi\n", "script with a #! line"),
        (b"#! /usr/bin/env python3\n", "script with a #! line"),
    ],
)
def test_programs_are_recognised_by_their_first_bytes(head, kind):
    assert executable_kind(head, "texture.png") == kind


@pytest.mark.parametrize(
    "head",
    [
        tiny_glb(),
        b"\x89PNG\r\n\x1a\n" + bytes(100),
        b"\xff\xd8\xff\xe0" + bytes(100),
        b"Kaydara FBX Binary  \x00\x1a\x00",
        b'{"asset": {"version": "2.0"}}',
        b"MZ" + bytes(200),  # "MZ" without a PE header is just two bytes of data
        b"MZ" + bytes(58) + struct.pack("<I", 0xFFFFFFF0),  # a PE offset far past the head
        b"MZ",
        b"#!",  # no interpreter path
        b"",
    ],
)
def test_model_and_image_data_are_not_programs(head):
    assert executable_kind(head, "model.bin") is None


@pytest.mark.parametrize(
    "name",
    [
        "setup.exe",
        "SETUP.EXE",
        "tools/helper.dll",
        "run.bat",
        "payload.ps1",
        "install.sh",
        "viewer.js",
        "plugin.py",
        "lib.so",
        "link.lnk",
    ],
)
def test_programs_and_scripts_are_recognised_by_their_names(name):
    assert executable_kind(b"harmless bytes", name) == f".{name.rsplit('.', 1)[1].lower()} file"


@pytest.mark.parametrize("name", ["evil.exe.", "evil.exe . .", "evil.sh\0.png"])
def test_names_are_read_the_way_extractors_write_them(name):
    assert executable_kind(b"", name) is not None


@pytest.mark.parametrize(
    "name",
    ["model.glb", "scene.gltf", "hero.fbx", "albedo.png", "README", "exe", "archive.zip", ".sh"],
)
def test_asset_names_are_not_programs(name):
    assert executable_kind(b"", name) is None
