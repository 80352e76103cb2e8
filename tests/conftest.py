"""Fixtures shared by the whole test suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from assetcheck.daemon.location import NO_DAEMON_VARIABLE
from tests import network_guard
from tests.network_guard import NetworkAccessBlockedError

# Records the issue codes every process of the session raises, and fails a whole-suite run
# that leaves a built-in code unraised (tests/raised_codes.py).
pytest_plugins = ["tests.raised_codes"]


@pytest.fixture(autouse=True, scope="session")
def no_network() -> Iterator[type[NetworkAccessBlockedError]]:
    """For the whole session, connecting or sending to an address other than loopback
    (127.0.0.0/8, ::1, ``localhost``) or a Unix socket raises :class:`NetworkAccessBlockedError`,
    and no host name but ``localhost`` is resolved (see ``tests/network_guard.py``). Yields the
    exception class, for the tests of the guard itself.
    """
    with pytest.MonkeyPatch.context() as patch:
        network_guard.install(patch.setattr)
        yield NetworkAccessBlockedError


@pytest.fixture(autouse=True, scope="session")
def no_daemon() -> Iterator[None]:
    """The commands the tests run validate in their own processes, whatever daemon the
    machine runs (``tests/daemon`` starts its own, and lets them use it)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(NO_DAEMON_VARIABLE, "1")
        yield


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite golden files (tests/assets/<area>/*.report.json) from the "
        "current results instead of comparing with them",
    )


@pytest.fixture(scope="session")
def update_golden(request: pytest.FixtureRequest) -> bool:
    """Whether this run rewrites golden files (``--update-golden``) rather than checking them."""
    return bool(request.config.getoption("--update-golden"))
