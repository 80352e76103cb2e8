import pytest

from assetcheck.formats.source import DirectoryResources, resolve_relative


@pytest.mark.parametrize(
    ("base", "uri", "expected"),
    [
        ("", "scene.bin", "scene.bin"),
        ("models", "tex/a%20b.png", "models/tex/a b.png"),
        ("models/car", "../shared/wheel.bin", "models/shared/wheel.bin"),
        ("", "./x.bin", "x.bin"),
    ],
)
def test_relative_uris_resolve_inside_the_upload(base, uri, expected):
    assert resolve_relative(base, uri) == expected


@pytest.mark.parametrize(
    "uri",
    [
        "../secret.bin",
        "../../etc/passwd",
        "a/../../b",
        "/etc/passwd",
        "file:///etc/passwd",
        "http://127.0.0.1:9/latest/meta-data",
        "//host/share/x.bin",
        "C:\\x.bin",
        "c:/x.bin",
        "data:application/octet-stream;base64,AA==",
        "",
        "%2e%2e/secret.bin",
    ],
)
def test_escaping_absolute_and_scheme_uris_are_refused(uri):
    assert resolve_relative("", uri) is None


def test_directory_resources_never_read_above_the_root(tmp_path):
    (tmp_path / "secret.bin").write_bytes(b"secret")
    root = tmp_path / "upload"
    root.mkdir()
    (root / "buf.bin").write_bytes(b"ok")
    (root / "link.bin").symlink_to(tmp_path / "secret.bin")
    resources = DirectoryResources(root)
    assert resources.read("buf.bin") == b"ok"
    assert resources.read("link.bin") is None
    assert resources.read("missing.bin") is None
    assert resources.opened == {"buf.bin"}


def test_directory_resources_follow_symlinks_that_stay_inside_the_root(tmp_path):
    real = tmp_path / "real"
    (real / "textures").mkdir(parents=True)
    (real / "textures" / "a.png").write_bytes(b"png")
    (real / "alias").symlink_to(real / "textures")
    (real / "copy.png").symlink_to(real / "textures" / "a.png")
    root = tmp_path / "upload"
    root.symlink_to(real)  # the root itself may be reached through a link
    resources = DirectoryResources(root)
    assert resources.read("textures/a.png") == b"png"
    assert resources.read("alias/a.png") == b"png"
    assert resources.read("copy.png") == b"png"


def test_directory_resources_refuse_folders_files_and_links_leading_out(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.bin").write_bytes(b"secret")
    root = tmp_path / "upload"
    (root / "sub").mkdir(parents=True)
    (root / "file.bin").write_bytes(b"ok")
    (root / "out").symlink_to(outside)
    resources = DirectoryResources(root)
    assert resources.read("out/secret.bin") is None
    assert resources.read("sub") is None
    assert resources.read("file.bin/inner") is None
    assert resources.read("sub/missing.bin") is None
    assert resources.opened == set()


def test_directory_resources_never_climb_out_through_dot_dot_parts(tmp_path):
    (tmp_path / "secret.bin").write_bytes(b"secret")
    root = tmp_path / "upload"
    (root / "sub").mkdir(parents=True)
    (root / "buf.bin").write_bytes(b"ok")
    resources = DirectoryResources(root)
    assert resources.read("../secret.bin") is None
    assert resources.read("sub/../../secret.bin") is None
    assert resources.read("sub/../buf.bin") == b"ok"  # climbs, but stays inside
    assert resources.read("./buf.bin") == b"ok"
