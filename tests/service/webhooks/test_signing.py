"""Secrets and signature headers: what a receiver of either scheme recomputes, it gets."""

import base64
import hashlib
import hmac
import re
import time

import pytest
import standardwebhooks

from assetcheck.service.webhooks.signing import (
    new_secret,
    service_signature,
    signature_headers,
    standard_signature,
)

BODY = b'{"event":"validation.completed","job_id":"job_1","result":{"valid":true}}'
SECRET = "whsec_" + "Ab3" * 10 + "xY"


def test_a_new_secret_is_whsec_followed_by_32_alphanumerics():
    assert re.fullmatch(r"whsec_[A-Za-z0-9]{32}", new_secret())


def test_new_secrets_differ():
    assert len({new_secret() for _ in range(100)}) == 100


def test_service_signature_is_hex_hmac_sha256_of_the_body_keyed_with_the_whole_secret():
    expected = hmac.new(SECRET.encode("ascii"), BODY, hashlib.sha256).hexdigest()
    assert service_signature(BODY, SECRET) == expected


def test_standard_signature_signs_id_timestamp_and_body_with_the_base64_decoded_secret():
    key = base64.b64decode(SECRET.removeprefix("whsec_"))
    digest = hmac.new(key, b"dlv_1.1700000000." + BODY, hashlib.sha256).digest()
    assert (
        standard_signature(BODY, SECRET, message_id="dlv_1", timestamp=1_700_000_000)
        == "v1," + base64.b64encode(digest).decode()
    )


def test_headers_carry_the_delivery_id_and_the_timestamp():
    headers = signature_headers(BODY, delivery_id="dlv_7", secret=SECRET, timestamp=1_700_000_000)
    assert headers["webhook-id"] == "dlv_7"
    assert headers["webhook-timestamp"] == "1700000000"
    assert headers["X-Service-Signature"] == service_signature(BODY, SECRET)


def test_standardwebhooks_verifies_the_headers():
    secret = new_secret()
    headers = signature_headers(BODY, delivery_id="dlv_1", secret=secret)
    assert standardwebhooks.Webhook(secret).verify(BODY, headers) == {
        "event": "validation.completed",
        "job_id": "job_1",
        "result": {"valid": True},
    }


def test_standardwebhooks_refuses_a_tampered_body():
    secret = new_secret()
    headers = signature_headers(BODY, delivery_id="dlv_1", secret=secret)
    with pytest.raises(standardwebhooks.WebhookVerificationError):
        standardwebhooks.Webhook(secret).verify(BODY.replace(b"true", b"false"), headers)


def test_a_retry_keeps_the_webhook_id_and_signs_a_fresh_timestamp():
    secret = new_secret()
    first = signature_headers(BODY, delivery_id="dlv_1", secret=secret, timestamp=1_700_000_000)
    retry = signature_headers(BODY, delivery_id="dlv_1", secret=secret)
    assert retry["webhook-id"] == first["webhook-id"]
    assert retry["X-Service-Signature"] == first["X-Service-Signature"]
    assert retry["webhook-signature"] != first["webhook-signature"]
    standardwebhooks.Webhook(secret).verify(BODY, retry)


def test_during_a_rotation_both_secrets_verify_the_standard_signature():
    old, new = new_secret(), new_secret()
    headers = signature_headers(BODY, delivery_id="dlv_1", secret=new, previous_secret=old)
    assert len(headers["webhook-signature"].split(" ")) == 2
    for secret in (new, old):
        standardwebhooks.Webhook(secret).verify(BODY, headers)


def test_during_a_rotation_the_service_signature_uses_the_new_secret():
    old, new = new_secret(), new_secret()
    headers = signature_headers(BODY, delivery_id="dlv_1", secret=new, previous_secret=old)
    assert headers["X-Service-Signature"] == service_signature(BODY, new)


def test_a_secret_signed_by_nobody_else_fails_verification():
    headers = signature_headers(BODY, delivery_id="dlv_1", secret=new_secret())
    with pytest.raises(standardwebhooks.WebhookVerificationError):
        standardwebhooks.Webhook(new_secret()).verify(BODY, headers)


def test_the_timestamp_defaults_to_now():
    before = int(time.time())
    headers = signature_headers(BODY, delivery_id="dlv_1", secret=SECRET)
    assert before <= int(headers["webhook-timestamp"]) <= int(time.time())


@pytest.mark.parametrize("secret", ["whsec_", "whsec_not base64!", "whsec_été"])
def test_a_secret_that_is_not_base64_is_refused(secret):
    with pytest.raises(ValueError, match="whsec_"):
        standard_signature(BODY, secret, message_id="dlv_1", timestamp=1_700_000_000)
