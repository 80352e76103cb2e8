"""What the dashboard adds to the service's Tornado application: settings and routes."""

from __future__ import annotations

from typing import Any

from assetcheck.config.settings import Config
from assetcheck.service.dashboard import WEB_ROOT
from assetcheck.service.dashboard.handlers import default_handlers
from assetcheck.service.dashboard.login_limits import DashboardLimits
from assetcheck.service.dashboard.model_names import ModelFileNames
from assetcheck.service.dashboard.page_cache import RenderedPages
from assetcheck.service.dashboard.render_turns import RenderTurns
from assetcheck.service.dashboard.templating import make_environment
from assetcheck.service.webapp.ratelimit import RateLimiter

__all__ = ["default_handlers", "settings"]


def settings(config: Config) -> dict[str, Any]:
    """Application settings for the dashboard's handlers. ``make_app`` sets the two that
    secure every page itself: ``cookie_secret`` and ``xsrf_cookies``. With ``[server]
    secure_cookies`` the XSRF cookie is ``Secure`` too, like the session cookie."""
    return {
        "dashboard_templates": make_environment(),
        "dashboard_limits": DashboardLimits.from_settings(config.accounts),
        "dashboard_page_cache": RenderedPages(),
        "dashboard_model_names": ModelFileNames(),
        "dashboard_render_turns": RenderTurns(),
        "dashboard_page_rate": RateLimiter(),
        "login_url": "/login",
        "static_path": str(WEB_ROOT / "static"),
        # Scripts read the token from the page, never from the cookie.
        "xsrf_cookie_kwargs": {
            "httponly": True,
            "samesite": "Lax",
            **({"secure": True} if config.server.secure_cookies else {}),
        },
    }
