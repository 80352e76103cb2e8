"""Every issue code has a title an artist understands (``docs/plugins.md``, Titles): the built-in
codes and the bundled plugins' have one written for them; a plugin that gives none gets one made
from its code."""

from __future__ import annotations

import re
import string

import assetcheck_naming
import assetcheck_standalone_vr

from assetcheck import hookimpl
from assetcheck.issues import IssueArea, IssueType, title_from_code
from assetcheck.plugins.builtin_codes import builtin_issue_types
from assetcheck.plugins.manager import PluginConfig, build_registry, get_plugin_manager

#: Longer than this, a title stops being a headline.
LONGEST_TITLE = 60

WRITTEN = [
    *builtin_issue_types(),
    *assetcheck_naming.NamingPlugin().register_issue_types(),
    *assetcheck_standalone_vr.register_issue_types(),
]


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_registered_code_has_a_title_the_installed_plugins_included():
    registry = build_registry(get_plugin_manager())
    assert {"NAMING_MESH", "VR_UNCOMPRESSED_TEXTURE"} <= {t.code for t in registry}
    assert [t.code for t in registry if not t.title.strip()] == []


def test_every_built_in_and_bundled_code_has_a_title_written_for_it():
    assert [t.code for t in WRITTEN if t.title == title_from_code(t.code)] == []


def test_titles_are_short_plain_words_without_codes_or_fields():
    def plain(issue_type: IssueType) -> bool:
        title = issue_type.title
        return (
            len(title) <= LONGEST_TITLE
            and title[0] == title[0].upper()
            and not title.endswith(".")
            and "{" not in title
            and not re.search(r"[A-Z0-9]+_[A-Z0-9_]+", title)
        )

    assert [t.code for t in WRITTEN if not plain(t)] == []


def test_no_two_codes_share_a_title():
    seen: dict[str, str] = {}
    shared = [
        (seen[t.title], t.code) for t in WRITTEN if seen.setdefault(t.title, t.code) != t.code
    ]
    assert shared == []


def test_count_phrases_use_only_fields_the_message_is_given():
    assert [
        t.code for t in WRITTEN if not _fields(t.count_phrase) <= _fields(t.message) | {"file"}
    ] == []


class Untitled:
    """A plugin whose issue type has no title."""

    @hookimpl
    def register_issue_types(self) -> list[IssueType]:
        return [IssueArea("studio").declare("STUDIO_MESH_NAME", "warning", "Mesh {name}.", "Fix.")]


def test_a_plugin_that_gives_no_title_gets_one_made_from_its_code():
    pm = get_plugin_manager(PluginConfig(entry_points=False, extra=(Untitled(),)))
    assert build_registry(pm)["STUDIO_MESH_NAME"].title == "Studio mesh name"
