"""What a KTX2 parse found wrong, as issue codes with their message fields, independent of
the issue collector so the parser stays a pure function of the bytes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Ktx2Problem:
    """One finding: an issue code of the ``ktx2`` area and the fields its message names."""

    code: str
    fields: dict[str, Any] = field(default_factory=dict, hash=False)


class Problems:
    """The findings of one parse, in the order they were found."""

    def __init__(self) -> None:
        self.found: list[Ktx2Problem] = []

    def add(self, code: str, **fields: Any) -> None:
        self.found.append(Ktx2Problem(code, fields))

    def __contains__(self, code: object) -> bool:
        return any(problem.code == code for problem in self.found)
