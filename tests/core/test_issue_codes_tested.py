"""Every issue code AssetCheck registers is named by some test: a code nothing can trigger is
dead, and a code no test triggers can silently stop firing."""

import re
from pathlib import Path

from assetcheck.plugins.manager import PluginConfig, build_registry, get_plugin_manager

TESTS = Path(__file__).resolve().parents[1]
#: Test sources and the golden reports they compare with.
TEST_FILES = ("*.py", "*.json")


def test_every_registered_code_is_named_by_a_test_or_a_golden_report():
    registry = build_registry(get_plugin_manager(PluginConfig(entry_points=False)))
    named = set()
    for pattern in TEST_FILES:
        for path in TESTS.rglob(pattern):
            if path != Path(__file__):
                named.update(re.findall(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b", path.read_text()))
    untested = sorted(issue_type.code for issue_type in registry if issue_type.code not in named)
    assert not untested, f"no test names these codes: {untested}"
