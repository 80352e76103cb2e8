"""Authentication, plans and rate limits on a live server: docs/api.md and docs/security.md."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
import requests

from assetcheck.service.accounts.keys import key_digest
from assetcheck.service.accounts.store import issue_key
from assetcheck.service.db.tables import Account, ApiKey, utcnow
from tests.service.harness import bearer, wait_until


def get_engines(url: str, headers: dict[str, str]) -> requests.Response:
    return requests.get(f"{url}/api/v1/engines", headers=headers, timeout=10)


def assert_unauthorized(response: requests.Response, code: str) -> None:
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == "Bearer"
    assert response.headers["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == code
    assert set(body) == {"error", "code"} and isinstance(body["error"], str)


def test_a_request_without_a_key_is_told_to_use_the_bearer_scheme(url):
    response = get_engines(url, {})
    assert_unauthorized(response, "MISSING_API_KEY")
    assert "Authorization: Bearer <API_KEY>" in response.json()["error"]


def test_malformed_authorization_values_are_invalid_keys(url, key):
    for value in (
        f"Basic {key}",
        "Bearer",
        "Bearer svc_short",
        f"Bearer {key}x",
        key,
        f"Token {key}",
    ):
        assert_unauthorized(get_engines(url, {"Authorization": value}), "INVALID_API_KEY")


def test_a_well_formed_key_that_was_never_issued_is_invalid(url):
    unknown = "svc_" + "A" * 32
    assert_unauthorized(get_engines(url, bearer(unknown)), "INVALID_API_KEY")


def test_a_revoked_key_is_refused(url, key):
    ApiKey.update(revoked_at=utcnow()).where(ApiKey.digest == key_digest(key)).execute()
    assert_unauthorized(get_engines(url, bearer(key)), "API_KEY_REVOKED")


def test_an_expired_key_is_refused(url, make_key):
    key = make_key(expires_at=utcnow() - timedelta(seconds=1))
    assert_unauthorized(get_engines(url, bearer(key)), "API_KEY_EXPIRED")


def test_a_key_before_its_expiry_works(url, make_key):
    key = make_key(expires_at=utcnow() + timedelta(days=1))
    assert get_engines(url, bearer(key)).status_code == 200


def test_a_key_of_an_account_moved_to_the_free_plan_gets_plan_required(url, make_key):
    key = make_key(plan="starter")  # keys are never made on the free plan: it was moved there
    account = ApiKey.get(ApiKey.digest == key_digest(key)).account
    Account.update(plan="free").where(Account.id == account.id).execute()
    response = get_engines(url, bearer(key))
    assert response.status_code == 403
    assert response.json()["code"] == "PLAN_REQUIRED"


def test_a_key_over_its_rate_limit_gets_429_with_retry_after_and_others_are_unaffected(
    url, make_key
):
    starter = make_key(plan="starter")  # 3 requests per minute in the test config
    other = make_key(plan="starter")
    statuses = [get_engines(url, bearer(starter)).status_code for _ in range(3)]
    limited = get_engines(url, bearer(starter))
    assert statuses == [200, 200, 200]
    assert limited.status_code == 429
    assert limited.json()["code"] == "RATE_LIMITED"
    assert int(limited.headers["Retry-After"]) >= 1
    assert get_engines(url, bearer(other)).status_code == 200


def test_an_accounts_keys_share_its_plans_rate(url, make_key):
    first = make_key(plan="starter")  # 3 requests per minute in the test config
    account = ApiKey.get(ApiKey.digest == key_digest(first)).account
    second = issue_key(account, "second")[1]
    statuses = [get_engines(url, bearer(key)).status_code for key in (first, second, second)]
    limited = get_engines(url, bearer(second))
    assert statuses == [200, 200, 200]
    assert limited.status_code == 429 and limited.json()["code"] == "RATE_LIMITED"
    assert "account" in limited.json()["error"]


def test_using_a_key_records_when_it_was_last_used(url, key):
    assert get_engines(url, bearer(key)).status_code == 200
    row = ApiKey.get(ApiKey.digest == key_digest(key))
    assert row.last_used_at is not None and utcnow() - row.last_used_at < timedelta(minutes=1)


def test_the_database_holds_digests_and_prefixes_never_keys(key):
    row = ApiKey.get(ApiKey.digest == key_digest(key))
    stored = [str(value) for value in row.__data__.values()]
    stored += [str(value) for value in Account.get_by_id(row.account_id).__data__.values()]
    assert not any(key in value for value in stored)
    assert row.prefix == key[:12] and re.fullmatch(r"[0-9a-f]{64}", row.digest)


def test_no_log_line_contains_a_key_or_an_authorization_value(service, url, key):
    get_engines(url, bearer(key))
    get_engines(url, {"Authorization": f"Bearer {key}x"})
    log = service.log()
    assert key not in log
    assert "Bearer" not in log and "svc_" not in log


@pytest.mark.parametrize("query", ["api_key={key}", "key={key}&limit=5", "q=Bearer%20{key}"])
def test_a_key_in_the_query_string_is_refused_even_beside_a_valid_header(url, key, query):
    response = requests.get(
        f"{url}/api/v1/engines?{query.format(key=key)}", headers=bearer(key), timeout=10
    )
    assert_unauthorized(response, "INVALID_API_KEY")
    assert "never accepted in the URL" in response.json()["error"]


def test_no_log_line_contains_a_query_string_key_or_a_webhook_secret(service, url, key):
    secret = "whsec_" + "S3cret" * 6
    requests.get(f"{url}/api/v1/engines?api_key={key}", timeout=10)
    requests.get(f"{url}/healthz?api_key={key}", timeout=10)
    requests.get(f"{url}/hooks/{secret}", timeout=10)  # a 404, logged with its path
    assert wait_until(lambda: "404 GET /hooks/[redacted] " in service.log())
    log = service.log()
    assert key not in log and key[4:] not in log
    assert secret not in log and "S3cret" not in log
