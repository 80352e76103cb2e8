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
    text = indented_json(document)
    if _plain(text):
        return text + "\n"
    return "\n".join(map(visible, text.split("\n"))) + "\n"


def _plain(text: str) -> bool:
    """Whether JSON ``text`` has nothing :func:`~assetcheck.reports.visible` would escape: it is
    ASCII without DEL, as JSON escapes every other invisible ASCII character."""
    return text.isascii() and "\x7f" not in text


def indented_json(document: Any) -> str:
    """``json.dumps(document, indent=2, ensure_ascii=False)``, byte for byte, fast.

    The standard library indents in Python, ten times slower than orjson in C; but the two
    write some floats differently (``1e-07``, ``1e-7``), and orjson writes NaN as ``null`` and
    refuses what the standard library accepts (integer keys, integers beyond 64 bits, lone
    surrogates). So orjson's text is used only when its compact form equals the standard
    library's compact form, written by its C encoder; the indentation both add is the same.
    orjson is imported on first use, so a command that prints no JSON never pays for its import
    (uuid's, mostly: more than one report's rendering saves, ``docs/performance.md``).
    """
    import orjson

    try:
        compact = json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        same = orjson.dumps(document) == compact.encode()
    except (TypeError, ValueError):  # NaN, or what orjson refuses: the standard library decides
        same = False
    if same:
        return orjson.dumps(document, option=orjson.OPT_INDENT_2).decode()
    return json.dumps(document, indent=2, ensure_ascii=False)


def render_json_list(documents: list[Any]) -> str:
    """Several reports as one JSON array, one report per line (compact), as :func:`render_json`
    makes text safe. Compact JSON is written by the standard library's C encoder, many times
    faster than indenting, which matters for the reports of a whole folder."""
    lines = (json.dumps(document, ensure_ascii=False) for document in documents)
    return "[\n" + ",\n".join(line if _plain(line) else visible(line) for line in lines) + "\n]\n"
