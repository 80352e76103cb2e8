"""Running native code fed with an upload (a parser, a payload decoder) in a child process.

The child is the decoder helper (:func:`assetcheck.sandbox.helper.run_in_helper`, or a fresh
child where the helper cannot serve), under the reader's limits
(``options.limits``): a hang ends as ``VALIDATION_TIMEOUT``, a blow-up as ``RESOURCE_LIMIT`` and
a crash as the caller's own crash code, and the caller carries on without the data. A caller
with other work to do may start the decoder first (:func:`start_decoder`) and collect its
result later (:func:`decoded`), the same result reported the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from assetcheck.asset.options import Limits
from assetcheck.issues import FileIssues
from assetcheck.sandbox.child import ChildCrashed, ChildOutOfMemory, ChildTimeout
from assetcheck.sandbox.helper import Started, start_in_helper

T = TypeVar("T")


def run_decoder(
    function: Callable[[], T],
    limits: Limits,
    issues: FileIssues,
    crash_code: str,
    *,
    result_types: Iterable[Callable[..., object]] = (),
) -> T | None:
    """``function()`` computed in a child under ``limits``, or None after reporting why not.

    ``function`` returns plain data or instances of ``result_types`` (see ``run_in_child``),
    and an exception of one of those types is raised here again; ``crash_code`` is reported,
    with a ``reason``, when the child dies, raises something else or sends something
    unexpected.
    """
    with start_decoder(function, limits, result_types=result_types) as started:
        return decoded(started, limits, issues, crash_code)


def start_decoder(
    function: Callable[[], T],
    limits: Limits,
    *,
    result_types: Iterable[Callable[..., object]] = (),
) -> Started[T]:
    """``function()`` sent to a child under ``limits`` now, to be collected by
    :func:`decoded` while the caller does something else meanwhile; close it (a ``with``
    block) whatever happens (:func:`~assetcheck.sandbox.helper.start_in_helper`)."""
    return start_in_helper(
        function,
        timeout=limits.parse_timeout,
        memory_limit_mb=limits.memory_limit_mb,
        result_types=result_types,
    )


def decoded(started: Started[T], limits: Limits, issues: FileIssues, crash_code: str) -> T | None:
    """The result of a started decoder, or None after reporting why there is none, as
    :func:`run_decoder` does."""
    try:
        return started.result()
    except ChildTimeout:
        issues.add("VALIDATION_TIMEOUT", seconds=limits.parse_timeout)
    except ChildOutOfMemory:
        issues.add("RESOURCE_LIMIT", limit_mb=limits.memory_limit_mb)
    except (ChildCrashed, RuntimeError) as crash:
        issues.add(crash_code, reason=str(crash))
    return None
