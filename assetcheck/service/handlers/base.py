"""API handlers authenticate with a key: ``Authorization: Bearer svc_…``."""

from __future__ import annotations

from collections.abc import Hashable

from assetcheck.accounts.keys import KeyRefused, Principal, authenticate
from assetcheck.webapp.errors import RequestError
from assetcheck.webapp.handlers import AccountHandler

BEARER_CHALLENGE = {"WWW-Authenticate": "Bearer"}


class KeyAuthentication:
    """The request acts for the account of its API key; the plan's rate counts per key."""

    rate_limited_message = "Too many requests for this API key: retry in {wait} s."

    async def authenticate(self) -> Principal:
        try:
            return await self.run_blocking(authenticate,
                                           self.request.headers.get("Authorization"))
        except KeyRefused as refusal:
            headers = BEARER_CHALLENGE if refusal.status == 401 else None
            raise RequestError(refusal.status, refusal.code, refusal.message,
                               headers) from None

    def rate_limit_key(self) -> Hashable:
        return self.principal.key_id


class ApiHandler(KeyAuthentication, AccountHandler):
    """An ``/api/v1`` handler: the request needs a valid key, a plan with API access and room
    in the key's rate limit before any method runs."""
