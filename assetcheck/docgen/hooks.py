"""``docs/hooks.md``: every hook of :mod:`assetcheck.plugins.hookspecs`, its signature and its
contract (the docstring), in the order the module declares them."""

from __future__ import annotations

import inspect

from assetcheck.docgen.markdown import from_docstring
from assetcheck.plugins import hookspecs


def hook_specs() -> list:
    """The hook specification functions, in declaration order."""
    return [
        value
        for value in vars(hookspecs).values()
        if callable(value) and hasattr(value, "assetcheck_spec")
    ]


def hooks_markdown() -> str:
    lines = [
        "# Plugin hooks",
        "",
        "Generated from `assetcheck/plugins/hookspecs.py` by `tools/generate_docs.py`; do not edit "
        "by hand.",
        "Implement a hook with `@assetcheck.hookimpl` on a function of the same name (see",
        "`docs/plugins.md`). A *firstresult* hook stops at the first plugin that answers.",
    ]
    for spec in hook_specs():
        options = spec.assetcheck_spec
        signature = str(inspect.signature(spec)).replace("'", "")
        lines += [
            "",
            f"### {spec.__name__}",
            "",
            "```python",
            f"{spec.__name__}{signature}",
            "```",
            "",
        ]
        if options.get("firstresult"):
            lines += ["*firstresult*: the first non-`None` answer wins.", ""]
        lines.append(from_docstring(inspect.getdoc(spec) or ""))
    return "\n".join(lines) + "\n"
