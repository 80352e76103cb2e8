"""The JSON report's text is the standard library's, byte for byte, however it is written."""

import json

import pytest

from assetcheck.reports import visible
from assetcheck.reports.json_text import indented_json, render_json, render_json_list

AWKWARD = {
    "floats orjson writes otherwise": [1e-05, 2.5e-07, 1e-300, 1e16, 0.1, -0.0, 123456.789],
    "not a number": [float("nan"), float("inf"), -float("inf")],
    "integers beyond 64 bits": [2**64, -(2**70)],
    "keys that are not text": {1: "one", 2.5: "two and a half", None: "none", False: "no"},
    "a lone surrogate": "name \ud800 cut",
    "names in other scripts": ["é", "名前", "😀", "\u2028"],
    "empty containers": [[], {}, [[]], {"a": {}}],
    "a tuple": (1, "two", None),
}


@pytest.mark.parametrize("name", sorted(AWKWARD))
def test_indented_json_is_the_standard_librarys_text(name):
    document = {"case": name, "value": AWKWARD[name], "nested": [{"value": AWKWARD[name]}]}
    assert indented_json(document) == json.dumps(document, indent=2, ensure_ascii=False)


def test_indented_json_raises_what_the_standard_library_raises():
    with pytest.raises(TypeError, match="not JSON serializable"):
        indented_json({"value": object()})


def test_render_json_escapes_delete_and_bidi_overrides_in_any_text():
    assert render_json({"name": "a\x7fb"}) == '{\n  "name": "a\\u007fb"\n}\n'
    assert render_json({"name": "é\u202e"}) == '{\n  "name": "é\\u202e"\n}\n'


def test_render_json_list_escapes_each_report_line_as_visible_does_and_keeps_plain_ones():
    documents = [
        {"name": "plain ascii", "count": 3},
        {"name": "a\x7fb"},
        {"name": "é\u202e \ud800", "nested": [{"escape": "\x1b[31m"}]},
    ]
    lines = [visible(json.dumps(document, ensure_ascii=False)) for document in documents]
    assert render_json_list(documents) == "[\n" + ",\n".join(lines) + "\n]\n"
    assert '"a\\u007fb"' in render_json_list(documents[1:2])
