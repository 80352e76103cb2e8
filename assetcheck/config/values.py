"""Reading one table of the merged configuration into typed values.

Every built-in key is read once, as the configuration loads, by :class:`Table`: a value of the
wrong type or out of range is a :class:`ConfigError` whose message names the key
(``config key server.port must be ...``), and the command stops before it does anything.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any, NoReturn, TypeGuard

#: The highest TCP port number.
MAX_PORT = 65535


class ConfigError(ValueError):
    """The configuration file or an override is unusable; the message says which key."""


def is_number(value: object) -> TypeGuard[int | float]:
    """Whether a TOML value is a number: an integer or a float (true and false are not)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


class Table:
    """The values of the table ``name`` (``server``, ``plans.pro``), read key by key.

    Each reader returns the value in its type or raises :class:`ConfigError`; ``requirement``
    replaces the default wording of what the key must be. A key the table lacks is refused
    too: every built-in table has its defaults merged in, so only a plan of the file's own
    (``[plans.studio]``) can lack one.
    """

    def __init__(self, name: str, values: Mapping[str, Any]) -> None:
        self.name = name
        self.values = values

    def refuse(self, key: str, requirement: str) -> NoReturn:
        raise ConfigError(f"config key {self.name}.{key} {requirement}")

    def get(self, key: str) -> Any:
        if key not in self.values:
            self.refuse(key, "is missing")
        return self.values[key]

    def text(self, key: str, requirement: str = "must be a string") -> str:
        value = self.get(key)
        if not isinstance(value, str):
            self.refuse(key, requirement)
        return value

    def path(self, key: str, requirement: str = "must be a folder path (a string)") -> Path | None:
        """A path, or None for an empty string (no folder)."""
        value = self.text(key, requirement)
        return Path(value) if value else None

    def flag(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            self.refuse(key, "must be true or false")
        return value

    def choice(self, key: str, choices: Collection[str]) -> str:
        value = self.get(key)
        if value not in choices:
            self.refuse(key, f"must be one of {', '.join(map(repr, choices))}")
        return value

    def whole(self, key: str, minimum: int = 0, requirement: str | None = None) -> int:
        """A whole number of ``minimum`` or more (true and false are not numbers)."""
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            self.refuse(key, requirement or f"must be a whole number, {minimum} or more")
        return value

    def port(self, key: str) -> int:
        """A TCP port number; 0 asks the system for a free one."""
        requirement = "must be a port number (0: a free one)"
        value = self.whole(key, 0, requirement)
        if value > MAX_PORT:
            self.refuse(key, requirement)
        return value

    def number(self, key: str, requirement: str = "must be a number of 0 or more") -> float:
        """A number of 0 or more (not NaN)."""
        value = self._number(key, requirement)
        if not value >= 0:
            self.refuse(key, requirement)
        return value

    def positive(self, key: str, requirement: str = "must be a number over 0") -> float:
        """A number over 0 (not NaN)."""
        value = self._number(key, requirement)
        if not value > 0:
            self.refuse(key, requirement)
        return value

    def seconds(self, key: str) -> float:
        """A time limit: a number of seconds over 0."""
        return self.positive(key, "must be a number of seconds over 0")

    def texts(self, key: str, requirement: str) -> tuple[str, ...]:
        """A list of strings."""
        value = self.get(key)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            self.refuse(key, requirement)
        return tuple(value)

    def tables(self) -> dict[str, Table]:
        """The tables inside this one (``[plans.<name>]``), by name."""
        inner = {}
        for key, value in self.values.items():
            if not isinstance(value, Mapping):
                self.refuse(key, "must be a table")
            inner[key] = Table(f"{self.name}.{key}", value)
        return inner

    def _number(self, key: str, requirement: str) -> float:
        value = self.get(key)
        if not is_number(value):
            self.refuse(key, requirement)
        return float(value)
