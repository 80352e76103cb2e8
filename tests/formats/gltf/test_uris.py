"""``uri_properties`` finds every ``uri`` string outside ``extras``, in document order, whether
it takes the short way (only buffers and images hold the key) or walks the whole document."""

from __future__ import annotations

import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from assetcheck.formats.gltf.fields import child
from assetcheck.formats.gltf.uris import uri_properties

ASSETS = Path(__file__).resolve().parents[2] / "assets"
CORPUS = (
    Path("/usr/share/assimp/models"),
    Path(__file__).resolve().parents[4] / "shared" / "corpus" / "gltf",
)


def every_uri(value: Any, at: str = "") -> Iterator[tuple[str, str]]:
    """The reference: a plain recursive walk of the document in order, ``extras`` left out."""
    if isinstance(value, dict):
        if isinstance(value.get("uri"), str):
            yield child(at, "uri"), value["uri"]
        for key, item in value.items():
            if key != "extras":
                yield from every_uri(item, child(at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from every_uri(item, child(at, index))


DOCUMENTS = {
    "buffers and images": '{"images": [{"uri": "a.png"}, 3, {"name": "x"}],'
    ' "buffers": [{"uri": "a.bin"}, {"uri": 7}]}',
    "in an extension": '{"buffers": [{"uri": "a.bin"}],'
    ' "extensions": {"EXT_x": {"shaders": [{"uri": "../up.glsl"}]}}}',
    "in extras": '{"buffers": [{"uri": "a.bin"}], "extras": {"uri": "http://x"}}',
    "in nested extras": '{"nodes": [{"extras": {"files": [{"uri": "/etc/passwd"}]}}]}',
    "as a value": '{"buffers": [{"uri": "a.bin", "name": "uri"}], "x": {"uri": "b"}}',
    "escaped": '{"buffers": [{"\\u0075ri": "a.bin"}], "x": {"\\u0075ri": "C:/b"}}',
    "duplicated": '{"buffers": [{"uri": 1, "uri": "a.bin"}], "x": [{"uri": "b"}]}',
    "at the root": '{"uri": "http://root", "buffers": [{"uri": "a.bin"}]}',
    "buffers an object": '{"buffers": {"uri": "a.bin", "b": {"uri": "c"}}}',
    "glTF 1.0": '{"shaders": {"vs": {"uri": "vs.glsl"}}, "images": {"i": {"uri": "../i.png"}}}',
    "deep": '{"a": [[[{"b": {"uri": "deep"}}]]], "images": [{"uri": "x.png"}]}',
    "none": '{"asset": {"version": "2.0"}}',
}


@pytest.mark.parametrize("text", DOCUMENTS.values(), ids=DOCUMENTS.keys())
def test_every_uri_outside_extras_is_found_in_document_order(text: str):
    document = json.loads(text)
    assert list(uri_properties(document, text.encode())) == list(every_uri(document))


def json_text(path: Path) -> bytes:
    """The JSON of a ``.gltf`` file, or of a GLB's first chunk."""
    data = path.read_bytes()
    if data[:4] != b"glTF":
        return data
    length = struct.unpack_from("<I", data, 12)[0]
    return data[20 : 20 + length]


def corpus_files() -> list[Path]:
    folders = (ASSETS, *CORPUS)
    return sorted(
        path
        for folder in folders
        if folder.is_dir()
        for path in folder.rglob("*")
        if path.suffix.lower() in (".gltf", ".glb") and path.is_file()
    )


def test_every_corpus_file_has_the_uris_a_walk_finds():
    checked = 0
    for path in corpus_files():
        text = json_text(path)
        try:
            document = json.loads(text.decode("utf-8-sig"))
        except ValueError:
            continue
        if isinstance(document, dict):
            assert list(uri_properties(document, text)) == list(every_uri(document)), path
            checked += 1
    assert checked > 100
