"""The answers of a key-authenticated operation, declared once in ``components.responses``."""

from __future__ import annotations

from assetcheck.service.api.openapi.fragments import error, retry_after


def common_responses() -> dict:
    """``components.responses``: what any operation that takes an API key can answer."""
    return {
        "Unauthorized": {
            **error(
                "MISSING_API_KEY, INVALID_API_KEY (also for a key in the "
                "query string), API_KEY_REVOKED or API_KEY_EXPIRED"
            ),
            "headers": {"WWW-Authenticate": {"schema": {"const": "Bearer"}}},
        },
        "PlanRequired": error(
            "PLAN_REQUIRED: the account's plan has no API access (or, "
            "for webhook settings, no webhooks)"
        ),
        "RateLimited": {
            **error("RATE_LIMITED: too many requests for this account"),
            "headers": retry_after(),
        },
    }


def authenticated() -> dict:
    """An operation's 401, 403 and 429: references to :func:`common_responses`."""
    return {
        "401": {"$ref": "#/components/responses/Unauthorized"},
        "403": {"$ref": "#/components/responses/PlanRequired"},
        "429": {"$ref": "#/components/responses/RateLimited"},
    }
