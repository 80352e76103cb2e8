"""Reference pages generated from code, one module per page: the issue codes, the engine
profiles, the scoring, the plugin hooks and the objects plugins handle.

``python tools/generate_docs.py`` writes them into ``docs/``; a test fails when they are stale.
"""

from __future__ import annotations

from assetcheck.docgen.hooks import hooks_markdown
from assetcheck.docgen.issues import issues_markdown
from assetcheck.docgen.model import model_markdown
from assetcheck.docgen.profiles import profiles_markdown
from assetcheck.docgen.scoring import scoring_markdown
from assetcheck.plugins.manager import PluginConfig, build_registry, get_plugin_manager


def generated_pages() -> dict[str, str]:
    """The generated pages by file name, from the built-in plugins only (no installed ones)."""
    registry = build_registry(get_plugin_manager(PluginConfig(entry_points=False)))
    return {
        "issues.md": issues_markdown(registry),
        "profiles.md": profiles_markdown(),
        "scoring.md": scoring_markdown(),
        "hooks.md": hooks_markdown(),
        "model.md": model_markdown(),
    }
