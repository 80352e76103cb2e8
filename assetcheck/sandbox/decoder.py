"""Running native code fed with an upload (a parser, a payload decoder) in a child process.

The child is the decoder helper (:func:`assetcheck.sandbox.helper.run_in_helper`, or a fresh
child where the helper cannot serve), under the reader's limits
(``options.limits``): a hang ends as ``VALIDATION_TIMEOUT``, a blow-up as ``RESOURCE_LIMIT`` and
a crash as the caller's own crash code, and the caller carries on without the data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from assetcheck.asset.options import Limits
from assetcheck.issues import FileIssues
from assetcheck.sandbox.child import ChildCrashed, ChildOutOfMemory, ChildTimeout
from assetcheck.sandbox.helper import run_in_helper

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
    try:
        return run_in_helper(
            function,
            timeout=limits.parse_timeout,
            memory_limit_mb=limits.memory_limit_mb,
            result_types=result_types,
        )
    except ChildTimeout:
        issues.add("VALIDATION_TIMEOUT", seconds=limits.parse_timeout)
    except ChildOutOfMemory:
        issues.add("RESOURCE_LIMIT", limit_mb=limits.memory_limit_mb)
    except (ChildCrashed, RuntimeError) as crash:
        issues.add(crash_code, reason=str(crash))
    return None
