import json

from assetcheck import __version__
from assetcheck.cli import main


def test_plugins_lists_builtins_profiles_formats_and_codes(capsys):
    assert main(["plugins", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = {p["name"] for p in data["plugins"]}
    assert {"assetcheck.formats.glb", "assetcheck.formats.fbx", "assetcheck.scoring"} <= names
    assert {e["name"] for e in data["engines"]} >= {
        "generic",
        "web",
        "unity",
        "unreal",
        "godot",
        "mobile",
    }
    assert {f["name"] for f in data["reportFormats"]} >= {"json", "markdown", "badge", "junit"}
    assert "CHECK_CRASHED" in {c["code"] for c in data["issueCodes"]}


def test_plugins_text_output_has_each_section(capsys):
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    for heading in ("Plugins:", "Checks:", "Engine profiles:", "Report formats:", "Issue codes"):
        assert heading in out


def test_plugins_says_where_each_plugin_comes_from(tmp_path, capsys):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "studio.py").write_text("")
    config = tmp_path / "assetcheck.toml"
    config.write_text('[plugins]\ndir = "rules"\n')
    assert main(["plugins", "--json", "--config", str(config)]) == 0
    origins = {
        p["name"]: (p["origin"], p["version"])
        for p in json.loads(capsys.readouterr().out)["plugins"]
    }
    assert origins["studio"] == (f"file {rules / 'studio.py'}", None)
    assert origins["assetcheck.scoring"] == ("built-in", __version__)
    assert origins["naming"] == ("package assetcheck-naming 1.0.0", "1.0.0")


def test_plugins_leaves_out_checks_disabled_by_name(tmp_path, capsys):
    config = tmp_path / "assetcheck.toml"
    config.write_text('[plugins]\ndisabled = ["texture-memory"]\n')
    assert main(["plugins", "--json"]) == 0
    every = {c["name"] for c in json.loads(capsys.readouterr().out)["checks"]}
    assert main(["plugins", "--json", "--config", str(config)]) == 0
    left = {c["name"] for c in json.loads(capsys.readouterr().out)["checks"]}
    assert every - left == {"texture-memory"}
