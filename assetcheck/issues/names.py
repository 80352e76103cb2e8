"""Names taken from an asset (file and member names, mesh, node and material names), cut to a
length every report, page and database column can hold (``docs/security.md``, Reports).

An archive may name its members with 60,000 characters and a glTF its meshes with more; kept
whole, a few hundred such names make reports of many megabytes that every page and format
then carries. A cut name keeps its first characters and ends with :data:`CUT_MARK` and its
full length, so a reader sees that it was cut and by how much.
"""

from __future__ import annotations

MAX_NAME_LENGTH = 255
#: What ends a cut name, before its original length: ``SM_Crate_0000… [cut from 60,000]``.
CUT_MARK = "\N{HORIZONTAL ELLIPSIS} [cut from "


def cut_name(name: str, limit: int = MAX_NAME_LENGTH) -> str:
    """``name`` when it has at most ``limit`` characters; otherwise its start, then
    :data:`CUT_MARK`, its length in characters and ``]``, ``limit`` characters in all.
    Cutting a cut name changes nothing."""
    if len(name) <= limit:
        return name
    note = f"{CUT_MARK}{len(name):,}]"
    return name[: max(0, limit - len(note))] + note


def was_cut(text: str) -> bool:
    """Whether ``text`` is (or ends with) a name :func:`cut_name` cut."""
    return CUT_MARK in text
