"""``docs/model.md``: the objects a plugin receives and returns, from their classes.

Each class brings its docstring; each field its type, its default (or "required") and the
``#:`` comment written above it in the source. Budgets are described by
:data:`~assetcheck.scoring.profiles.BUDGET_LABELS`, and each is also an ``[engines.<name>]`` key.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import textwrap
from typing import Any

from assetcheck.asset import Animation, Asset, Material, MeshPart, Texture
from assetcheck.checks import Check, CheckContext
from assetcheck.docgen.markdown import from_docstring, table_cell
from assetcheck.formats.registry import FileFormat
from assetcheck.scoring.profiles import BUDGET_LABELS, Budgets, EngineProfile, MeshRules

#: (section title, the classes it documents), in the order a plugin meets them.
SECTIONS: tuple[tuple[str, tuple[type, ...]], ...] = (
    ("The asset a check receives", (Asset, MeshPart, Material, Texture, Animation)),
    ("Checks", (Check, CheckContext)),
    ("Engine profiles", (EngineProfile, MeshRules)),
    ("File formats", (FileFormat,)),
)

INTRODUCTION = """# Plugin object reference

Generated from the classes by `tools/generate_docs.py`; do not edit by hand. The hooks that
pass and return these objects are in `docs/hooks.md`; how to write, test and ship a plugin is
in `docs/plugins.md`. A field marked *required* has no default: construct the object with it."""


def field_comments(cls: type) -> dict[str, str]:
    """The ``#:`` comment lines written directly above each field of ``cls``, joined."""
    source = textwrap.dedent(inspect.getsource(cls))
    lines = source.splitlines()
    comments = {}
    for node in ast.parse(source).body[0].body:  # type: ignore[attr-defined]
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            above: list[str] = []
            row = node.lineno - 2
            while row >= 0 and lines[row].strip().startswith("#:"):
                above.insert(0, lines[row].strip()[2:].strip())
                row -= 1
            comments[node.target.id] = " ".join(above)
    return comments


def class_section(cls: type) -> list[str]:
    """A class's heading, docstring and field table."""
    comments = field_comments(cls)
    lines = [
        f"### {cls.__name__}",
        "",
        f"`{cls.__module__}.{cls.__name__}`",
        "",
        from_docstring(inspect.getdoc(cls) or ""),
        "",
        "| Field | Type | Default | Meaning |",
        "|---|---|---|---|",
    ]
    for item in dataclasses.fields(cls):
        lines.append(
            f"| `{item.name}` | `{table_cell(str(item.type))}` | {_default(item)} "
            f"| {table_cell(from_docstring(comments.get(item.name, '')))} |"
        )
    return lines


def budgets_section() -> list[str]:
    """Every budget: its key (in ``Budgets`` and in ``[engines.<name>]``), type and meaning."""
    lines = [
        "### Budgets",
        "",
        f"`{Budgets.__module__}.Budgets`",
        "",
        from_docstring(inspect.getdoc(Budgets) or ""),
        "",
        "Every field is required. Each is also a key of the `[engines.<name>]` config "
        "table, which changes that budget for one engine (`docs/profiles.md` lists the "
        "values of the built-in profiles):",
        "",
        "```toml",
        "[engines.mobile]",
        "texture_size = 1024",
        "```",
        "",
        "| Key | Type | Meaning |",
        "|---|---|---|",
    ]
    for item in dataclasses.fields(Budgets):
        lines.append(f"| `{item.name}` | `{item.type}` | {BUDGET_LABELS[item.name]} |")
    return lines


def model_markdown() -> str:
    lines = [INTRODUCTION]
    for title, classes in SECTIONS:
        lines += ["", f"## {title}"]
        for cls in classes:
            lines += ["", *class_section(cls)]
        if EngineProfile in classes:
            lines += ["", *budgets_section()]
    return "\n".join(lines) + "\n"


def _default(item: dataclasses.Field[Any]) -> str:
    if item.default is not dataclasses.MISSING:
        return f"`{_literal(item.default)}`"
    if item.default_factory is not dataclasses.MISSING:
        return f"`{_literal(item.default_factory())}`"
    return "*required*"


def _literal(value: object) -> str:
    """``repr(value)``, with a set's members sorted so the page never changes between runs."""
    if isinstance(value, set | frozenset):
        members = ", ".join(repr(member) for member in sorted(value))
        return f"{type(value).__name__}({{{members}}})" if value else f"{type(value).__name__}()"
    return repr(value)
