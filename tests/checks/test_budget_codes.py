"""Every file budget has its own code, reported when a file's metric goes over the budget."""

import pytest

from assetcheck.asset import Asset
from assetcheck.checks import CheckContext
from assetcheck.checks.budgets import over_budget
from assetcheck.issues import IssueCollector
from assetcheck.plugins.manager import PluginConfig, build_registry, get_plugin_manager
from assetcheck.scoring.profiles import BUILTIN_PROFILES


@pytest.mark.parametrize(
    ("budget", "code"),
    [
        ("triangles_per_file", "BUDGET_TRIANGLES_PER_FILE"),
        ("materials", "BUDGET_MATERIALS"),
        ("draw_calls", "BUDGET_DRAW_CALLS"),
        ("texture_size", "BUDGET_TEXTURE_SIZE"),
        ("bones", "BUDGET_BONES"),
        ("uv_sets", "BUDGET_UV_SETS"),
        ("file_size_mb", "BUDGET_FILE_SIZE"),
    ],
)
def test_a_metric_over_its_budget_reports_the_budget_code_and_one_within_does_not(budget, code):
    profile = BUILTIN_PROFILES["mobile"]
    limit = getattr(profile.budgets, budget)
    registry = build_registry(get_plugin_manager(PluginConfig(entry_points=False)))
    found = {}
    for used in (limit, limit + 1):
        collector = IssueCollector(registry)
        asset = Asset("prop.glb", "glb", metrics={budget: used})
        over_budget(asset, CheckContext(collector.for_file("prop.glb"), profile, None))
        found[used] = [issue.code for issue in collector.issues]
    assert found == {limit: [], limit + 1: [code]}
