"""How every process of the service writes its log: one line per record on stderr, as text
(the default) or as one JSON object (``[logging] format = "json"``), with the log context and
with every secret-shaped token redacted (``docs/operations.md``, Logs).

Messages carry names from clients (upload and archive member names, paths). Both formats pass
every message through :func:`escape_log_text`, so that no name can end a line (``\n``, U+0085,
U+2028) or reorder how it reads (bidi controls), whichever line a log reader splits on."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime

from assetcheck.service.observability.log_context import FIELDS, LogContext
from assetcheck.service.observability.redaction import install_redaction

TEXT_FORMAT = "%(asctime)s %(levelname)s [%(processName)s] %(name)s: %(message)s%(context_text)s"


def escape_log_text(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` with every character that is not printable (controls, line and paragraph
    separators, bidi and other format characters) written as its Python escape (``\x85``,
    ``\u2028``, ``\u202e``); ``keep_newlines`` keeps ``\n`` (the lines of a traceback)."""
    if text.isprintable():
        return text
    return "".join(
        char
        if char.isprintable() or (keep_newlines and char == "\n")
        else char.encode("unicode_escape").decode("ascii")
        for char in text
    )


class TextFormatter(logging.Formatter):
    """:data:`TEXT_FORMAT`, its message escaped (:func:`escape_log_text`); a traceback keeps its
    line breaks, nothing else that breaks or reorders a line."""

    def __init__(self) -> None:
        super().__init__(TEXT_FORMAT)

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = escape_log_text(record.message)
        return super().formatMessage(record)

    def formatException(self, ei) -> str:
        return escape_log_text(super().formatException(ei), keep_newlines=True)

    def formatStack(self, stack_info: str) -> str:
        return escape_log_text(super().formatStack(stack_info), keep_newlines=True)


class JsonFormatter(logging.Formatter):
    """One JSON object per record: ``time`` (ISO 8601 UTC), ``level``, ``logger``,
    ``message``, ``process``, the log context's ``request_id``, ``job_id`` and ``account_id``
    (null when unset), and ``exception`` when the record has a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        moment = datetime.fromtimestamp(record.created, UTC)
        entry = {
            "time": moment.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": escape_log_text(record.getMessage()),
            "process": record.processName,
            **{name: getattr(record, name, None) for name in FIELDS},
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = escape_log_text(record.exc_text, keep_newlines=True)
        if record.stack_info:
            entry["stack"] = escape_log_text(record.stack_info, keep_newlines=True)
        return json.dumps(entry, ensure_ascii=False, default=str)


def setup_process_logging(log_format: str = "text", level: int = logging.INFO) -> None:
    """Log records of every logger on stderr in ``log_format`` (``text`` or ``json``),
    with the log context, and with secrets redacted: in every process of the service."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    handler.addFilter(LogContext())
    logging.basicConfig(level=level, handlers=[handler])
    install_redaction()
    logging.getLogger("apscheduler").setLevel(logging.WARNING)
