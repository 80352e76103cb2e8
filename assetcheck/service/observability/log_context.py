"""Who a log line is about: the request id, job id and account id of the work under way,
held in context variables so that every line written while handling a request (or running a
job) carries them, whichever module writes it.

An asyncio task, and a thread started through ``contextvars.copy_context().run``, see the
values of the code that started it; a job's worker process sets them for the job it runs.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: The fields every log record gets, in the order the text format shows them.
FIELDS = ("request_id", "job_id", "account_id")

_VALUES: dict[str, ContextVar[str | int | None]] = {
    name: ContextVar(name, default=None) for name in FIELDS
}


def bind(**values: str | int | None) -> None:
    """Set some of :data:`FIELDS` for the rest of the current context (a request's task)."""
    for name, value in values.items():
        _VALUES[name].set(value)


@contextmanager
def bound(**values: str | int | None) -> Iterator[None]:
    """Set some of :data:`FIELDS` for the ``with`` block only (a job, a webhook delivery)."""
    tokens = [(_VALUES[name], _VALUES[name].set(value)) for name, value in values.items()]
    try:
        yield
    finally:
        for variable, token in reversed(tokens):
            variable.reset(token)


def current() -> dict[str, str | int | None]:
    """The value of each of :data:`FIELDS` here (None when unset)."""
    return {name: variable.get() for name, variable in _VALUES.items()}


class LogContext(logging.Filter):
    """A handler filter that puts :data:`FIELDS` on each record (a value passed with
    ``extra=`` wins), and ``context_text``: the set ones as `` (request=…, job=…)``."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in current().items():
            if getattr(record, name, None) is None:
                setattr(record, name, value)
        shown = [
            f"{name.removesuffix('_id')}={getattr(record, name)}"
            for name in FIELDS
            if getattr(record, name) is not None
        ]
        record.context_text = f" ({', '.join(shown)})" if shown else ""
        return True
