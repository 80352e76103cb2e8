"""Running a payload decoder (native code fed with an upload's bytes) in a child process.

The child is :func:`assetcheck.formats.fbx_child.run_in_child`'s, under the reader's limits
(``options.limits``): a hang ends as ``VALIDATION_TIMEOUT``, a blow-up as ``RESOURCE_LIMIT`` and
a crash as the codec's own decode error, and the caller carries on without the data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from assetcheck.formats.fbx_child import ChildCrashed, ChildOutOfMemory, ChildTimeout, run_in_child
from assetcheck.issues import FileIssues
from assetcheck.options import Limits

T = TypeVar("T")


def run_decoder(function: Callable[[], T], limits: Limits, issues: FileIssues,
                crash_code: str) -> T | None:
    """``function()`` computed in a child under ``limits``, or None after reporting why not.

    ``function`` must return plain data (see ``run_in_child``); ``crash_code`` is reported,
    with a ``reason``, when the child dies or sends something unexpected.
    """
    try:
        return run_in_child(function, timeout=limits.parse_timeout,
                            memory_limit_mb=limits.memory_limit_mb)
    except ChildTimeout:
        issues.add("VALIDATION_TIMEOUT", seconds=limits.parse_timeout)
    except ChildOutOfMemory:
        issues.add("RESOURCE_LIMIT", limit_mb=limits.memory_limit_mb)
    except (ChildCrashed, RuntimeError) as crash:
        issues.add(crash_code, reason=f"the decoder failed ({crash})")
    return None
