"""Every hook of assetcheck/plugins/hookspecs.py, proven through the real engine on real GLB
bytes."""

import re
from pathlib import Path

import pluggy
import pytest

from assetcheck import hookimpl
from assetcheck.asset import Asset
from assetcheck.checks import Check
from assetcheck.engine import validate
from assetcheck.formats.registry import FileFormat
from assetcheck.issues import IssueType
from assetcheck.plugins.manager import PluginConfig, PluginError, get_plugin_manager, hookspecs
from assetcheck.reports import ReportFormat, UnknownReportFormatError, render
from assetcheck.reports.document import build_report
from assetcheck.scoring.profiles import BUILTIN_PROFILES, EngineProfile, UnknownEngineError
from assetcheck.testing.gltf import GltfBuilder, Primitive

ROOT = Path(__file__).resolve().parents[2]
STUDIO_CODE = IssueType(
    "STUDIO_MESH_NAME",
    "warning",
    "Mesh {name} lacks the SM_ prefix.",
    "Rename it SM_{name}.",
    "studio",
)


@pytest.fixture
def glb(tmp_path: Path) -> Path:
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3)], name="rock"))
    return builder.write_glb(tmp_path / "rock.glb")


def manager(*plugins: object) -> pluggy.PluginManager:
    return get_plugin_manager(PluginConfig(entry_points=False, extra=plugins))


def naming_check(asset, context):
    for index, part in enumerate(asset.parts):
        if not part.name.startswith("SM_"):
            context.issues.add("STUDIO_MESH_NAME", pointer=f"/meshes/{index}", name=part.name)


class StudioPlugin:
    @hookimpl
    def register_issue_types(self):
        return [STUDIO_CODE]

    @hookimpl
    def register_checks(self):
        return [
            Check(
                "mesh-names", "Mesh names start with SM_", naming_check, codes=("STUDIO_MESH_NAME",)
            )
        ]


class BrokenPlugin:
    @hookimpl
    def register_checks(self):
        def explode(asset, context):
            raise RuntimeError("boom")

        return [Check("explodes", "Always raises", explode)]


def test_hook_register_issue_types(glb):
    result = validate(glb, plugin_manager=manager(StudioPlugin()))
    (issue,) = [i for i in result.issues if i.code == "STUDIO_MESH_NAME"]
    assert issue.message == "Mesh rock lacks the SM_ prefix." and issue.fix == "Rename it SM_rock."


def test_issue_code_defined_twice_differently_fails_at_validation(glb):
    class Clash:
        @hookimpl
        def register_issue_types(self):
            return [IssueType("STUDIO_MESH_NAME", "error", "other", "other", "studio")]

    with pytest.raises(ValueError, match="defined twice"):
        validate(glb, plugin_manager=manager(StudioPlugin(), Clash()))


def test_hook_register_checks(glb):
    result = validate(glb, plugin_manager=manager(StudioPlugin()))
    (issue,) = [i for i in result.issues if i.code == "STUDIO_MESH_NAME"]
    assert (issue.file, issue.pointer) == ("rock.glb", "/meshes/0")
    assert issue.source.endswith(":mesh-names")
    assert {run.name for run in result.checks} >= {"mesh-names"}


def test_crashing_check_is_reported_and_other_checks_still_run(glb):
    result = validate(glb, plugin_manager=manager(BrokenPlugin(), StudioPlugin()))
    crashed = [i for i in result.issues if i.code == "CHECK_CRASHED"]
    assert len(crashed) == 1 and "explodes" in crashed[0].message and "boom" in crashed[0].message
    assert any(i.code == "STUDIO_MESH_NAME" for i in result.issues)
    assert [run.crashed for run in result.checks if run.name == "explodes"] == [True]


def test_hook_register_file_formats(tmp_path):
    class PlyPlugin:
        @hookimpl
        def register_file_formats(self):
            return [FileFormat("ply", "PLY", (".ply",), magic=(b"ply\n",))]

        @hookimpl
        def read_asset(self, source, issues, options):
            return Asset(source.name, "ply", vertex_count=8) if source.kind == "ply" else None

    model = tmp_path / "cube.bin"  # the content decides, not the name
    model.write_bytes(b"ply\nformat ascii 1.0\nelement vertex 8\n")
    result = validate(model, plugin_manager=manager(PlyPlugin()))
    assert [(asset.format, asset.vertex_count) for asset in result.assets] == [("ply", 8)]
    assert [i.code for i in validate(model, plugin_manager=manager()).issues] == [
        "UNSUPPORTED_FILE_TYPE"
    ]


def test_hook_read_asset(glb):
    class FirstReader:
        @hookimpl(tryfirst=True)
        def read_asset(self, source, issues, options):
            return Asset(source.name, "glb", vertex_count=99)

    result = validate(glb, plugin_manager=manager(FirstReader()))
    assert result.assets[0].vertex_count == 99


def test_reader_that_raises_becomes_reader_crashed(glb):
    class BrokenReader:
        @hookimpl(tryfirst=True)
        def read_asset(self, source, issues, options):
            raise ValueError("bad reader")

    result = validate(glb, plugin_manager=manager(BrokenReader()))
    (issue,) = [i for i in result.issues if i.code == "READER_CRASHED"]
    assert "bad reader" in issue.message and result.assets == []


def test_reader_that_returns_something_else_than_an_asset_becomes_reader_crashed(glb):
    class SloppyReader:
        @hookimpl(tryfirst=True)
        def read_asset(self, source, issues, options):
            return {"filename": source.name}

    result = validate(glb, plugin_manager=manager(SloppyReader()))
    (issue,) = [i for i in result.issues if i.code == "READER_CRASHED"]
    assert "returned a dict, not an Asset" in issue.message and result.assets == []


def test_hook_register_engine_profiles(glb):
    vr = EngineProfile(
        "quest",
        "Standalone VR headset",
        BUILTIN_PROFILES["mobile"].budgets.updated({"draw_calls": 30}),
    )

    class VrPlugin:
        @hookimpl
        def register_engine_profiles(self):
            return [vr]

    result = validate(glb, engine="quest", plugin_manager=manager(VrPlugin()))
    assert result.profile == vr
    with pytest.raises(UnknownEngineError, match="quest"):
        validate(glb, engine="quest", plugin_manager=manager())


def test_hook_register_report_formats(glb):
    class CsvPlugin:
        @hookimpl
        def register_report_formats(self):
            return [ReportFormat("csv", "text/csv", lambda r: f"{r['filename']},{r['grade']}\n")]

    pm = manager(CsvPlugin())
    report = build_report(validate(glb, plugin_manager=pm))
    assert render(pm, report, "csv") == ("rock.glb,excellent\n", "text/csv")
    with pytest.raises(UnknownReportFormatError, match="csv"):
        render(manager(), report, "csv")


def test_hook_compute_health_score(glb):
    class Strict:
        @hookimpl
        def compute_health_score(self, counts, severities, security_levels):
            return 42

    result = validate(glb, plugin_manager=manager(Strict()))
    assert (result.health_score, result.grade) == (42, "poor")


def test_hook_configure():
    class Settings:
        seen = None

        @hookimpl
        def configure(self, settings):
            Settings.seen = settings["studio"]["tier"]

    get_plugin_manager(
        PluginConfig(entry_points=False, extra=(Settings(),), settings={"studio": {"tier": "AAA"}})
    )
    assert Settings.seen == "AAA"


def test_blocked_builtin_plugin_does_not_run(glb):
    pm = get_plugin_manager(PluginConfig(entry_points=False, disabled=("assetcheck.formats.glb",)))
    result = validate(glb, plugin_manager=pm)
    assert result.assets == []
    # The format goes with its reader: a GLB is then a file of no supported format.
    assert [issue.code for issue in result.issues] == ["UNSUPPORTED_FILE_TYPE"]


LOOSE_PLUGIN = """
from assetcheck import hookimpl
from assetcheck.checks import Check
from assetcheck.issues import IssueType


@hookimpl
def register_issue_types():
    return [IssueType("STUDIO_NO_ROCKS", "info", "No rocks allowed.", "Remove it.", "studio")]


def no_rocks(asset, context):
    if any(part.name == "rock" for part in asset.parts):
        context.issues.add("STUDIO_NO_ROCKS")


@hookimpl
def register_checks():
    return [Check("no-rocks", "No meshes named rock", no_rocks)]
"""


def test_plugins_dir_loads_loose_files(tmp_path, glb):
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "studio_rules.py").write_text(LOOSE_PLUGIN)
    pm = get_plugin_manager(PluginConfig(dir=folder, entry_points=False))
    result = validate(glb, plugin_manager=pm)
    assert [i.source for i in result.issues if i.code == "STUDIO_NO_ROCKS"] == [
        "studio_rules:no-rocks"
    ]


def test_misspelled_hook_fails_at_start_up_naming_the_plugin_and_the_hook():
    class Typo:
        @hookimpl
        def register_chekcs(self):
            return []

    with pytest.raises(
        PluginError,
        match=r"plugin 'Typo' implements 'register_chekcs', which "
        r"is not an AssetCheck hook \(did you mean "
        r"'register_checks'\?\)",
    ):
        manager(Typo())


def test_every_hook_has_a_test_and_a_documented_heading():
    hooks = [
        name
        for name, value in vars(hookspecs).items()
        if callable(value) and hasattr(value, "assetcheck_spec")
    ]
    tests = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    reference = (ROOT / "docs" / "hooks.md").read_text()
    assert hooks
    for name in hooks:
        assert re.search(rf"def test_hook_{name}\(", tests), f"no test_hook_{name}"
        assert f"### {name}\n" in reference, f"docs/hooks.md has no heading for {name}"
