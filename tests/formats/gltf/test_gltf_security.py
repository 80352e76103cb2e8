"""glTF URIs and declared sizes as a hostile upload uses them (docs/security.md, glTF and GLB)."""

import json
import socket
import tracemalloc

import pytest

from assetcheck.formats.gltf.uris import UriKind, classify_uri
from assetcheck.plugins.manager import get_plugin_manager
from assetcheck.testing.gltf import data_uri, png_bytes
from tests.formats import codes, only_issue, reader_codes, validate_bytes

JPEG_HEAD = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + bytes(32)
ELF_HEAD = b"\x7fELF\x02\x01\x01" + bytes(57)


@pytest.fixture(scope="module")
def plugin_manager():
    return get_plugin_manager()


def with_buffer_uri(uri: str, byte_length: int = 8) -> bytes:
    return json.dumps(
        {
            "asset": {"version": "2.0"},
            "buffers": [{"byteLength": byte_length, "uri": uri}],
        }
    ).encode()


def with_image_uri(uri: str) -> bytes:
    return json.dumps({"asset": {"version": "2.0"}, "images": [{"uri": uri}]}).encode()


def warning(result, code):
    [found] = [w for w in result.security.warnings if w.code == code]
    return found


@pytest.mark.parametrize(
    ("uri", "base", "kind"),
    [
        ("model.bin", "", UriKind.RELATIVE),
        ("textures/../model.bin", "", UriKind.RELATIVE),
        ("../shared/wheel.bin", "cars/red", UriKind.RELATIVE),
        ("a%20b.png", "", UriKind.RELATIVE),
        ("data:application/octet-stream;base64,AAAA", "", UriKind.DATA),
        ("DATA:image/png;base64,AAAA", "", UriKind.DATA),
        ("../../secret.bin", "", UriKind.TRAVERSAL),
        ("../secret.bin", "models", UriKind.RELATIVE),
        ("../../secret.bin", "models", UriKind.TRAVERSAL),
        ("%2e%2e/secret.bin", "", UriKind.TRAVERSAL),
        ("..\\..\\secret.bin", "", UriKind.TRAVERSAL),
        ("textures/%2e%2e%5c%2e%2e%5csecret.bin", "", UriKind.TRAVERSAL),
        ("file:///etc/passwd", "", UriKind.EXTERNAL),
        ("http://127.0.0.1:9/latest/meta-data", "", UriKind.EXTERNAL),
        ("https://example.com/a.png", "", UriKind.EXTERNAL),
        ("//host/share/a.bin", "", UriKind.EXTERNAL),
        ("\\\\host\\share\\a.bin", "", UriKind.EXTERNAL),
        ("/etc/passwd", "", UriKind.EXTERNAL),
        ("%2Fetc%2Fpasswd", "", UriKind.EXTERNAL),
        ("C:/Windows/win.ini", "", UriKind.EXTERNAL),
    ],
)
def test_uris_are_classified_without_resolving_them(uri, base, kind):
    assert classify_uri(uri, base) is kind


@pytest.mark.parametrize(
    "uri",
    [
        "file:///etc/passwd",
        "http://127.0.0.1:9/latest/meta-data",
        "//host/share/a.bin",
        "/etc/passwd",
        "C:\\Windows\\win.ini",
    ],
)
def test_uri_leaving_the_upload_is_a_high_finding_and_unsafe(tmp_path, plugin_manager, uri):
    result = validate_bytes(tmp_path, "m.gltf", with_buffer_uri(uri), plugin_manager)
    issue = only_issue(result, "GLTF_EXTERNAL_URI")
    assert (issue.pointer, issue.severity) == ("/buffers/0/uri", "error")
    assert warning(result, "GLTF_EXTERNAL_URI").severity == "high"
    assert not result.security.safe
    assert "IO_ERROR" not in codes(result)


def test_http_uri_is_reported_and_never_fetched(tmp_path, plugin_manager):
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        port = listener.getsockname()[1]
        uri = f"http://127.0.0.1:{port}/latest/meta-data"
        result = validate_bytes(tmp_path, "m.gltf", with_image_uri(uri), plugin_manager)
        with pytest.raises(BlockingIOError):
            listener.accept()
    assert only_issue(result, "GLTF_EXTERNAL_URI").pointer == "/images/0/uri"
    assert not result.security.safe


@pytest.mark.parametrize(
    "uri", ["../../secret.bin", "%2e%2e/%2e%2e/secret.bin", "..\\..\\secret.bin"]
)
def test_uri_climbing_out_of_the_folder_is_critical_and_not_read(tmp_path, plugin_manager, uri):
    (tmp_path / "secret.bin").write_bytes(b"1234")  # 4 bytes: reading it would be a mismatch
    result = validate_bytes(tmp_path / "a" / "b", "m.gltf", with_buffer_uri(uri), plugin_manager)
    assert only_issue(result, "GLTF_PATH_TRAVERSAL").pointer == "/buffers/0/uri"
    assert warning(result, "GLTF_PATH_TRAVERSAL").severity == "critical"
    assert not result.security.safe
    assert "BUFFER_BYTE_LENGTH_MISMATCH" not in codes(result)


def test_relative_uri_that_stays_inside_is_read(tmp_path, plugin_manager):
    (tmp_path / "model.bin").write_bytes(bytes(8))
    result = validate_bytes(
        tmp_path, "m.gltf", with_buffer_uri("textures/../model.bin"), plugin_manager
    )
    assert reader_codes(result) == []
    assert result.security.safe


def test_uris_are_found_anywhere_but_in_extras(tmp_path, plugin_manager):
    gltf = json.dumps(
        {
            "asset": {"version": "2.0"},
            "extensions": {"EXT_audio": {"sources": [{"uri": "https://example.com/a.mp3"}]}},
            "extras": {"uri": "https://example.com/notes"},
        }
    ).encode()
    result = validate_bytes(tmp_path, "m.gltf", gltf, plugin_manager)
    assert only_issue(result, "GLTF_EXTERNAL_URI").pointer == "/extensions/EXT_audio/sources/0/uri"


def test_gltf_1_uris_are_reported_although_the_document_is_not_read(tmp_path, plugin_manager):
    gltf = json.dumps(
        {"asset": {"version": "1.0"}, "buffers": {"box": {"uri": "file:///etc/shadow"}}}
    ).encode()
    result = validate_bytes(tmp_path, "old.gltf", gltf, plugin_manager)
    assert codes(result) == ["GLTF_EXTERNAL_URI", "UNKNOWN_ASSET_MAJOR_VERSION"]
    assert only_issue(result, "GLTF_EXTERNAL_URI").pointer == "/buffers/box/uri"


@pytest.mark.parametrize(
    ("declared", "content", "actual"),
    [
        ("image/png", JPEG_HEAD, "image/jpeg data"),
        ("image/jpeg", png_bytes(), "image/png data"),
        ("image/png", ELF_HEAD, "ELF executable"),
        ("image/png", b"plain text", "not a recognised image"),
    ],
)
def test_data_uri_whose_content_is_not_its_media_type_is_a_medium_finding(
    tmp_path, plugin_manager, declared, content, actual
):
    result = validate_bytes(
        tmp_path, "m.gltf", with_image_uri(data_uri(content, declared)), plugin_manager
    )
    issue = only_issue(result, "GLTF_DATA_URI_MISMATCH")
    assert (issue.pointer, issue.severity) == ("/images/0/uri", "warning")
    assert actual in issue.message
    assert warning(result, "GLTF_DATA_URI_MISMATCH").severity == "medium"
    assert result.security.safe


def test_data_uri_matching_its_media_type_is_fine(tmp_path, plugin_manager):
    result = validate_bytes(
        tmp_path, "m.gltf", with_image_uri(data_uri(png_bytes(), "image/png")), plugin_manager
    )
    assert reader_codes(result) == []
    [texture] = result.assets[0].textures
    assert (texture.uri, texture.mime_type, texture.width) == (None, "image/png", 2)


@pytest.mark.parametrize("container", ["external", "data"])
def test_small_file_declaring_a_huge_buffer_is_flagged_with_flat_memory(
    tmp_path, plugin_manager, container
):
    (tmp_path / "tiny.bin").write_bytes(bytes(16))
    uri = "tiny.bin" if container == "external" else data_uri(bytes(16))
    gltf = json.dumps(
        {
            "asset": {"version": "2.0"},
            "buffers": [{"byteLength": 2**53, "uri": uri}],
            "bufferViews": [{"buffer": 0, "byteLength": 2**53 - 8, "byteStride": 12}],
            "accessors": [{"bufferView": 0, "count": 2**53, "componentType": 5126, "type": "VEC3"}],
            "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        }
    ).encode()
    assert len(gltf) < 1024
    tracemalloc.start()
    try:
        result = validate_bytes(tmp_path, "huge.gltf", gltf, plugin_manager)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert f"({2**53})" in only_issue(result, "BUFFER_BYTE_LENGTH_MISMATCH").message
    assert {"ACCESSOR_TOO_LONG", "BUFFER_BYTE_LENGTH_MISMATCH"} <= set(codes(result))
    assert "READER_CRASHED" not in codes(result)
    assert peak < 8 * 2**20
