"""The ``[plugins]`` table: crashed checks are logged (and errors on request), and every name in
``disabled`` either blocks a plugin, turns off a check, or is warned about."""

from __future__ import annotations

import logging

import pytest

from assetcheck import hookimpl
from assetcheck.checks import Check
from assetcheck.config.loading import config_from
from assetcheck.testing import GltfBuilder, Primitive, plugin_manager, validate_bytes


class Exploding:
    """A plugin whose one check always raises."""

    @hookimpl
    def register_checks(self):
        def explode(asset, context):
            raise RuntimeError("the studio rule has a bug")

        return [Check("explodes", "Always raises", explode)]


@pytest.fixture(scope="module")
def model() -> bytes:
    builder = GltfBuilder()
    builder.add_node(builder.add_mesh([Primitive(3, normals=True)], name="rock"))
    return builder.glb()


def test_a_crashed_check_is_logged_with_its_traceback(model, caplog):
    with caplog.at_level(logging.ERROR, logger="assetcheck.engine"):
        result = validate_bytes(model, plugin_manager=plugin_manager("", Exploding()))
    (record,) = caplog.records
    assert record.getMessage() == "check 'explodes' of plugin 'Exploding' crashed on model.glb"
    assert "the studio rule has a bug" in caplog.text and "Traceback" in caplog.text
    assert result.valid and "CHECK_CRASHED" in result.issue_counts


def test_crash_error_makes_a_crashed_check_an_error_and_the_file_invalid(model):
    settings = config_from({"plugins": {"crash": "error"}}, environ={})
    result = validate_bytes(
        model,
        plugin_manager=plugin_manager("", Exploding()),
        options=settings.validation_options("generic"),
    )
    assert not result.valid
    assert result.severity_counts["error"] == 1


def test_an_engine_severity_still_overrides_the_crash_setting():
    settings = config_from(
        {
            "plugins": {"crash": "error"},
            "engines": {"web": {"severity": {"CHECK_CRASHED": "info"}}},
        },
        environ={},
    )
    assert settings.validation_options("web").policy.severity_overrides == {"CHECK_CRASHED": "info"}
    assert settings.validation_options("generic").policy.severity_overrides == {
        "CHECK_CRASHED": "error"
    }


@pytest.mark.parametrize("name", ["explodes", "Exploding:explodes"])
def test_a_check_name_in_disabled_turns_off_that_check_only(model, name):
    pm = plugin_manager(f'[plugins]\ndisabled = ["{name}"]\n', Exploding())
    result = validate_bytes(model, plugin_manager=pm)
    assert "CHECK_CRASHED" not in result.issue_counts
    everything = validate_bytes(model, plugin_manager=plugin_manager("", Exploding())).checks
    assert [run.name for run in result.checks] == [
        run.name for run in everything if run.name != "explodes"
    ]


@pytest.mark.parametrize(
    ("name", "warning"),
    [
        (
            "assetcheck.checks.texture",
            "[plugins] disabled: no plugin or check is named 'assetcheck.checks.texture' "
            "(did you mean 'assetcheck.checks.textures'?); `assetcheck plugins` lists them",
        ),
        (
            "assetcheck-naming",
            "[plugins] disabled: 'assetcheck-naming' is a package, not a plugin; block its "
            "plugin by name: 'naming'",
        ),
    ],
)
def test_a_disabled_name_that_blocks_nothing_is_warned_about(name, warning, caplog):
    with caplog.at_level(logging.WARNING, logger="assetcheck.plugins"):
        plugin_manager(f'[plugins]\ndisabled = ["{name}"]\n')
    assert [r.getMessage() for r in caplog.records] == [warning]


def test_disabled_names_of_plugins_and_checks_are_not_warned_about(caplog):
    with caplog.at_level(logging.WARNING, logger="assetcheck.plugins"):
        plugin_manager(
            '[plugins]\ndisabled = ["naming", "assetcheck.checks.textures", "explodes"]\n',
            Exploding(),
        )
    assert caplog.records == []
