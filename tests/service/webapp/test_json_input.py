"""The one parser of client JSON (docs/security.md, Limits): too long, too deep or malformed is
a :class:`JsonInputError` that says why, never a crash of the parser."""

from __future__ import annotations

import json

import pytest

from assetcheck.service.webapp.json_input import JsonInputError, parse_json


@pytest.mark.parametrize(
    "raw",
    [
        b'{"webhook_url": null}',
        '{"a": [1, 2.5, "x"]}',
        b'"[[[[ brackets in a string are text ]"',
        b"[" * 32 + b"]" * 32,
        b'{"quote \\" [": [[]]}',
        b'{"pair": "\\ud83d\\ude00", "tab": "\\t"}',
    ],
)
def test_json_within_the_limits_reads_as_json_loads_reads_it(raw):
    assert parse_json(raw, "The body") == json.loads(raw)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (b"[" * 1000 + b"]" * 1000, "nested too deeply"),
        (b'{"a":' * 3000, "nested too deeply"),
        (b"[" * 100_000, "larger than"),
        (b'{"a": "' + b"x" * 70_000 + b'"}', "larger than"),
        (b"{not json", "not valid JSON"),
        (b'{"engine": NaN}', "not valid JSON"),
        (b"[Infinity]", "not valid JSON"),
        (b'{"a": "\xff"}', "not UTF-8"),
        (b"1" * 5000, "not valid JSON"),  # past Python's limit on digits in an int
        (b'{"baseline_job": "val_\\u0000"}', "NUL character"),
        (b'{"\\u0000": 1}', "NUL character"),
        (b'["ok", {"name": "\\udb50"}]', "lone surrogate"),
    ],
    ids=[
        "deep-arrays",
        "deep-objects",
        "long-and-deep",
        "long",
        "malformed",
        "nan",
        "infinity",
        "not-utf8",
        "huge-number",
        "nul-in-a-value",
        "nul-in-a-key",
        "lone-surrogate",
    ],
)
def test_input_too_long_too_deep_or_malformed_is_refused_saying_why(raw, reason):
    with pytest.raises(JsonInputError, match=reason) as refused:
        parse_json(raw, "The body")
    assert str(refused.value).startswith("The body ")


def test_the_limits_can_be_set_per_input():
    with pytest.raises(JsonInputError, match="at most 2 levels"):
        parse_json(b"[[[]]]", "The cursor", max_depth=2)
    with pytest.raises(JsonInputError, match="larger than the 4 bytes"):
        parse_json(b'"abcd"', "The cursor", max_bytes=4)
