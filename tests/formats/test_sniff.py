import pytest

from tests.builtin_formats import builtin_formats


@pytest.mark.parametrize(
    ("head", "kind"),
    [
        (b"glTF\x02\x00\x00\x00", "glb"),
        (b"PK\x03\x04rest", "zip"),
        (b"PK\x05\x06" + bytes(18), "zip"),
        (b"Kaydara FBX Binary  \x00\x1a\x00", "fbx"),
        (b"; FBX 7.4.0 project file\n", "fbx"),
        (b"\n\nFBXHeaderExtension:  {\n", "fbx"),
        (b'\xef\xbb\xbf  {"asset": {}}', "gltf"),
        (b"\x89PNG\r\n\x1a\n", None),
        (b"", None),
    ],
)
def test_sniff_decides_by_content(head, kind):
    assert builtin_formats().sniff(head) == kind


def test_content_wins_over_name_and_mismatch_is_reported():
    classify = builtin_formats().classify
    assert classify("model.fbx", b"glTF\x02\x00\x00\x00", in_archive=False) == ("glb", "fbx")


def test_unrecognised_content_is_no_format_whatever_its_name():
    classify = builtin_formats().classify
    assert classify("model.glb", b"random bytes", in_archive=False) == (None, None)
    assert classify("notes.txt", b"random bytes", in_archive=False) == (None, None)


def test_in_an_archive_unrecognised_content_is_read_as_its_name_claims_so_its_reader_explains():
    classify = builtin_formats().classify
    assert classify("model.glb", b"random bytes", in_archive=True) == ("glb", None)
    assert classify("notes.txt", b"random bytes", in_archive=True) == (None, None)


@pytest.mark.parametrize(
    ("head", "code"),
    [(b"", "EMPTY_FILE"), (b"hello", "UNSUPPORTED_FILE_TYPE"), (b"glTF\x02\x00", None)],
)
def test_refusal_names_the_code_of_content_no_format_reads(head, code):
    assert builtin_formats().refusal(head) == code


def test_json_in_an_archive_is_a_model_only_when_named_gltf():
    classify = builtin_formats().classify
    assert classify("meta.json", b"{}", in_archive=True) == (None, None)
    assert classify("scene.gltf", b"{}", in_archive=True) == ("gltf", None)
    assert classify("meta.json", b"{}", in_archive=False) == ("gltf", None)
