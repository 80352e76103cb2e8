"""AssetCheck's pytest plugin, registered under the ``pytest11`` entry point: wherever
AssetCheck is installed, a plugin's tests can ask for these fixtures without importing anything.

The fixtures import AssetCheck when a test asks for them, so the plugin costs nothing to pytest
runs that never use it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from assetcheck.plugins.manager import PluginManager
    from assetcheck.testing.gltf import GltfBuilder


@pytest.fixture
def assetcheck_plugin_manager() -> Callable[..., PluginManager]:
    """:func:`assetcheck.testing.plugin_manager`: ``assetcheck_plugin_manager(config_text,
    *plugins)`` builds a plugin manager as ``assetcheck validate`` does, from config text."""
    from assetcheck.testing.harness import plugin_manager

    return plugin_manager


@pytest.fixture
def assetcheck_issue_codes() -> Callable[..., list[str]]:
    """:func:`assetcheck.testing.issue_codes`: ``assetcheck_issue_codes(model_bytes,
    plugin_manager=pm)`` validates and returns the sorted distinct codes found."""
    from assetcheck.testing.harness import issue_codes

    return issue_codes


@pytest.fixture
def assetcheck_gltf() -> GltfBuilder:
    """A new, empty :class:`assetcheck.testing.GltfBuilder`; ``.glb()`` gives its bytes."""
    from assetcheck.testing.gltf import GltfBuilder

    return GltfBuilder()


def pytest_report_header(config: Any) -> str:
    """Which AssetCheck the tests run against: the installed one, not a checkout by mistake."""
    import assetcheck

    return f"assetcheck {assetcheck.__version__} at {assetcheck.__path__[0]}"
