"""What every child the service starts does to stay contained, and how its answer is read."""

from __future__ import annotations

import os
import pickle
import resource
from dataclasses import dataclass

import pytest

from assetcheck.sandbox.child import run_in_child
from assetcheck.sandbox.containment import RestrictedUnpickler, die_with_parent, limit_address_space


def exit_status_of(function) -> int:
    """The exit code of a forked child that runs ``function`` and then exits 0."""
    pid = os.fork()
    if pid == 0:
        try:
            function()
        finally:
            os._exit(0)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_a_child_whose_parent_is_already_gone_exits_at_once():
    """Named parent and real parent differ, as when the parent died before the request."""
    parent = os.getpid()
    assert exit_status_of(lambda: die_with_parent(parent, 9)) == 0
    assert exit_status_of(lambda: die_with_parent(1, 9)) == 1


def limits_after(limit_mb: int) -> tuple[int, int, bool]:
    limit_address_space(limit_mb)
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (hard + (1 << 20), hard + (1 << 20)))
    except ValueError:
        return soft, hard, False
    return soft, hard, True


def test_the_address_space_limit_binds_and_cannot_be_raised_again():
    soft, hard, raised = run_in_child(lambda: limits_after(64), timeout=10, memory_limit_mb=512)
    assert soft == hard != resource.RLIM_INFINITY
    assert not raised


def test_a_child_gets_at_most_what_is_left_of_its_parent_s_limit():
    def nested() -> tuple[int, int]:
        _, outer = resource.getrlimit(resource.RLIMIT_AS)
        inner = run_in_child(lambda: limits_after(1 << 20)[1], timeout=10, memory_limit_mb=1 << 20)
        return outer, inner

    outer, inner = run_in_child(nested, timeout=10, memory_limit_mb=256)
    assert inner == outer


@dataclass
class Allowed:
    value: object


class RunsCode:
    def __reduce__(self):
        return (os.getpid, ())


def test_the_unpickler_builds_allowed_types_and_refuses_what_they_carry_otherwise():
    assert RestrictedUnpickler(pickle.dumps(Allowed([1, "a"])), [Allowed]).load() == Allowed(
        [1, "a"]
    )
    with pytest.raises(pickle.UnpicklingError, match="getpid is not an expected type"):
        RestrictedUnpickler(pickle.dumps(Allowed(RunsCode())), [Allowed]).load()
