"""The browser dashboard: pages the service's own Tornado process serves at ``/``.

Templates and static files live in the top-level ``web/`` folder of the source tree; the wheel
ships that folder as ``assetcheck/web`` (hatchling ``force-include``). :data:`WEB_ROOT` is
whichever of the two this installation has.
"""

from __future__ import annotations

from pathlib import Path


def _web_root() -> Path:
    package = Path(__file__).resolve().parents[2]  # assetcheck/service/dashboard -> assetcheck
    installed = package / "web"
    return installed if installed.is_dir() else package.parent / "web"


WEB_ROOT = _web_root()
