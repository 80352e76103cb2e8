"""Small helpers shared by the generated pages."""

from __future__ import annotations

import re


def table_cell(text: str) -> str:
    """``text`` made safe inside a Markdown table cell."""
    return text.replace("|", "\\|")


_ROLE = re.compile(r":(?:class|func|mod|data|meth|attr):`~?([^`]+)`")


def from_docstring(text: str) -> str:
    """A docstring's reStructuredText made Markdown: ``literals`` and cross-reference roles
    (``:class:`~assetcheck.asset.Asset```) become code spans."""
    return _ROLE.sub(r"`\1`", text).replace("``", "`")
