"""Secrets never reach a log line (``docs/security.md``, Keys and accounts): every process of
the service logs through :class:`RedactSecrets`, which hides anything shaped like an API key
(``svc_…``) or a webhook secret (``whsec_…``), wherever it appears: in the message, its
arguments, or an exception's traceback."""

from __future__ import annotations

import logging
import re

#: A key or a webhook secret, whole or in part, plain or percent-encoded (``svc%5F…``).
SECRET_SHAPE = re.compile(
    r"(?<![A-Za-z0-9])(?:svc|whsec)(?:_|%5f)[A-Za-z0-9+/=_%-]*", re.IGNORECASE
)
REDACTED = "[redacted]"


def redact(text: str) -> str:
    """``text`` with every secret-shaped token replaced by ``[redacted]``."""
    return SECRET_SHAPE.sub(REDACTED, text)


class RedactSecrets(logging.Filter):
    """A handler filter that rewrites each record before it is formatted: its message (with
    the arguments merged in), its traceback text and its stack text are redacted."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def install_redaction(logger: logging.Logger | None = None) -> None:
    """Put :class:`RedactSecrets` on every handler of ``logger`` (the root logger by default),
    once: records of every logger that propagates there are redacted."""
    for handler in (logger or logging.getLogger()).handlers:
        if not any(isinstance(existing, RedactSecrets) for existing in handler.filters):
            handler.addFilter(RedactSecrets())
