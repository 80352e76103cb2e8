"""The JSON report as text: the ``json`` format, and the text of every JSON-based format."""

from __future__ import annotations

import json
from typing import Any

from assetcheck.reports import visible


def render_json(document: Any) -> str:
    """A report (any JSON document) as indented JSON, printable and always encodable as UTF-8.

    Characters :func:`~assetcheck.reports.visible` shows as ``\\uXXXX`` (a terminal escape, a
    bidi override, a lone surrogate that a glTF string may hold) are written as JSON escapes,
    so every string keeps its exact value. JSON escapes its own line breaks, so each line of
    the output is one piece of the structure.
    """
    text = json.dumps(document, indent=2, ensure_ascii=False)
    return "\n".join(map(visible, text.split("\n"))) + "\n"


def render_json_list(documents: list[Any]) -> str:
    """Several reports as one JSON array, one report per line (compact), as :func:`render_json`
    makes text safe. Compact JSON is written by the standard library's C encoder, many times
    faster than indenting, which matters for the reports of a whole folder."""
    lines = (visible(json.dumps(document, ensure_ascii=False)) for document in documents)
    return "[\n" + ",\n".join(lines) + "\n]\n"
