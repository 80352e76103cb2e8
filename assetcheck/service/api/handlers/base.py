"""API handlers authenticate with a key: ``Authorization: Bearer svc_…``."""

from __future__ import annotations

from urllib.parse import unquote_plus

from assetcheck.service.accounts.keys import KEY_PATTERN, KeyRefused, Principal, authenticate
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.handlers import AccountHandler

BEARER_CHALLENGE = {"WWW-Authenticate": "Bearer"}


class KeyAuthentication(AccountHandler):
    """The request acts for the account of its API key (whose plan's rate counts requests per
    account: see ``AccountHandler``). A key in the query string is refused (401
    INVALID_API_KEY), even beside a valid header."""

    async def authenticate(self) -> Principal:
        if key_in_query(self.request.query):
            raise RequestError(
                401,
                "INVALID_API_KEY",
                "API keys are never accepted in the URL, "
                "which ends up in logs and histories: send the header "
                "`Authorization: Bearer <API_KEY>`, and revoke a key that was "
                "sent in a URL.",
                BEARER_CHALLENGE,
            )
        try:
            return await self.run_blocking(authenticate, self.request.headers.get("Authorization"))
        except KeyRefused as refusal:
            headers = BEARER_CHALLENGE if refusal.status == 401 else None
            raise RequestError(refusal.status, refusal.code, refusal.message, headers) from None


class ApiHandler(KeyAuthentication, AccountHandler):
    """An ``/api/v1`` handler: the request needs a valid key, a plan with API access and room
    in the account's rate limit before any method runs."""


def key_in_query(query: str) -> bool:
    """Whether a query string carries something shaped like an API key (decoded first)."""
    return KEY_PATTERN.search(unquote_plus(query)) is not None
