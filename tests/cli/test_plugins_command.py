import json

from assetcheck.cli import main


def test_plugins_lists_builtins_profiles_formats_and_codes(capsys):
    assert main(["plugins", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    names = {p["name"] for p in data["plugins"]}
    assert {"assetcheck.formats.glb", "assetcheck.formats.fbx", "assetcheck.scoring"} <= names
    assert {e["name"] for e in data["engines"]} >= {"generic", "web", "unity", "unreal", "godot",
                                                     "mobile"}
    assert {f["name"] for f in data["reportFormats"]} >= {"json", "markdown", "badge", "junit"}
    assert "CHECK_CRASHED" in {c["code"] for c in data["issueCodes"]}


def test_plugins_text_output_has_each_section(capsys):
    assert main(["plugins"]) == 0
    out = capsys.readouterr().out
    for heading in ("Plugins:", "Checks:", "Engine profiles:", "Report formats:", "Issue codes"):
        assert heading in out
