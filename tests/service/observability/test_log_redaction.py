"""No secret reaches a log line (docs/security.md, Keys and accounts): every process of the
service logs through a filter that hides anything shaped like a key or a webhook secret."""

from __future__ import annotations

import io
import logging
import subprocess
import sys

import pytest

from assetcheck.service.observability.redaction import install_redaction, redact

KEY = "svc_" + "Ab1" * 10 + "Cd"
SECRET = "whsec_" + "Zz9" * 10 + "Yy"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"GET /x?api_key={KEY}&limit=5", "GET /x?api_key=[redacted]&limit=5"),
        (f"Bearer {KEY}", "Bearer [redacted]"),
        (f"secret={SECRET}.", "secret=[redacted]."),
        ("svc%5FAbCdEf and WHSEC_base64+/==", "[redacted] and [redacted]"),
        (
            "a service_level and svc without underscore",
            "a service_level and svc without underscore",
        ),
    ],
)
def test_secret_shaped_tokens_are_redacted_and_nothing_else(text, expected):
    assert redact(text) == expected


def test_messages_arguments_and_tracebacks_are_redacted():
    output = io.StringIO()
    logger = logging.getLogger("tests.redaction")
    logger.propagate = False
    logger.addHandler(logging.StreamHandler(output))
    install_redaction(logger)
    install_redaction(logger)  # once is enough: a second install adds nothing
    try:
        logger.warning("refused %s for %s", KEY, {"secret": SECRET})
        try:
            raise ValueError(f"bad key {KEY}")
        except ValueError:
            logger.exception("while handling %s", SECRET)
    finally:
        logger.handlers.clear()
    text = output.getvalue()
    assert KEY not in text and SECRET not in text and "Ab1Ab1" not in text
    assert text.count("[redacted]") == 4
    assert "ValueError: bad key [redacted]" in text


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_every_service_process_sets_up_its_log_with_the_filter(log_format):
    program = (
        "import logging; "
        "from assetcheck.service.observability.log_format import setup_process_logging; "
        f"setup_process_logging({log_format!r}); "
        f"logging.getLogger('any').warning('key %s', {KEY!r})"
    )
    result = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    assert "key [redacted]" in result.stderr and KEY not in result.stderr
