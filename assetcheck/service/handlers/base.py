"""API handlers authenticate with a key: ``Authorization: Bearer svc_…``."""

from __future__ import annotations

from assetcheck.accounts.keys import KeyRefused, Principal, authenticate
from assetcheck.webapp.errors import RequestError
from assetcheck.webapp.handlers import AccountHandler

BEARER_CHALLENGE = {"WWW-Authenticate": "Bearer"}


class KeyAuthentication:
    """The request acts for the account of its API key (whose plan's rate counts requests per
    account: see ``AccountHandler.rate_limit_key``)."""

    async def authenticate(self) -> Principal:
        try:
            return await self.run_blocking(authenticate,
                                           self.request.headers.get("Authorization"))
        except KeyRefused as refusal:
            headers = BEARER_CHALLENGE if refusal.status == 401 else None
            raise RequestError(refusal.status, refusal.code, refusal.message,
                               headers) from None


class ApiHandler(KeyAuthentication, AccountHandler):
    """An ``/api/v1`` handler: the request needs a valid key, a plan with API access and room
    in the account's rate limit before any method runs."""
