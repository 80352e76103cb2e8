"""The Markdown report renders as intended with a real CommonMark + GFM tables parser: tables
keep their shape and every name its exact text, and nothing from the asset becomes markup."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from markdown_it import MarkdownIt

from assetcheck.issues import IssueType
from assetcheck.reports import visible
from assetcheck.reports.markdown import FOLD_AFTER, FOLD_ROWS, WORD_JOINER, render_markdown
from tests.reports.cases import STORED_HOSTILE, failed_report, hostile_report


class RenderedPage(HTMLParser):
    """The tags and text of an HTML page, the text of each table cell and of each
    ``<details>``."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.text = ""
        self.tables: list[list[list[str]]] = []
        self.details: list[str] = []
        self._cell: list[str] | None = None
        self._open_details = 0
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []
        elif tag == "details":
            self._open_details += 1
            self.details.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None
        elif tag == "details":
            self._open_details -= 1

    def handle_data(self, data: str) -> None:
        self.text += data
        if self._cell is not None:
            self._cell.append(data)
        if self._open_details:
            self.details[-1] += data


def rendered(markdown: str) -> RenderedPage:
    """The page GitHub would show, as far as CommonMark with GFM tables and raw HTML goes."""
    return RenderedPage(MarkdownIt("commonmark", {"html": True}).enable("table").render(markdown))


def source_rows(markdown: str) -> list[str]:
    return [line for line in markdown.splitlines() if line.startswith("| ")]


def test_hostile_names_render_as_their_exact_text_and_never_as_markup():
    page = rendered(render_markdown(hostile_report()))
    assert {"script", "a", "img", "em", "strong"} & set(page.tags) == {"strong"}  # ours only
    files, parts = page.tables[:2]
    assert files[1][0] == visible(f"{STORED_HOSTILE}.glb")
    assert parts[1][0] == visible(STORED_HOSTILE)


#: A plugin's code whose title carries markup and whose headline quotes an asset's name.
TITLED = IssueType(
    "NAMED_TITLED",
    "warning",
    "Mesh {name} is odd.",
    "Rename {name}.",
    "test",
    title="Odd <b>mesh</b> *name*",
    count_phrase="({name})",
)


def test_an_issue_leads_with_its_headline_as_exact_text_and_its_code_follows_small():
    page = rendered(render_markdown(hostile_report(issue_type=TITLED)))
    assert {"script", "a", "img", "em", "b"} & set(page.tags) == set()
    assert visible(f"Odd <b>mesh</b> *name* ({STORED_HOSTILE}0)") in page.text
    assert {"sub", "code"} <= set(page.tags)
    headline = page.text.index("Odd <b>mesh</b>")
    assert headline < page.text.index("NAMED_TITLED", headline)


#: A name that GitHub would turn into a mention, links, an email link and an issue reference.
LIVE = (
    "@octocat https://evil.example/x www.evil.example <https://evil.example/y> ops@evil.example #1"
)
#: What GitHub links in the text of a rendered page (its autolink extension and its filters).
GITHUB_LINKS = re.compile(
    r"(?<![\w])@[A-Za-z0-9]|(?:https?|ftp)://|\bwww\.|[\w.+-]@[A-Za-z0-9]"
    r"|(?<![\w&])#[0-9]"
)


def test_asset_text_mentions_nobody_and_links_nowhere_yet_reads_the_same():
    page = rendered(render_markdown(hostile_report(name=LIVE)))
    assert "a" not in page.tags
    assert GITHUB_LINKS.search(page.text) is None
    files, parts = page.tables[:2]
    shown = [cell.replace(WORD_JOINER, "") for cell in (files[1][0], parts[1][0])]
    assert shown == [f"{LIVE}.glb", LIVE]


def test_every_table_row_has_as_many_cells_in_the_source_as_its_header():
    markdown = render_markdown(hostile_report())
    for table in rendered(markdown).tables:
        assert {len(row) for row in table} == {len(table[0])}
    widths = {row.replace("\\|", "").count("|") for row in source_rows(markdown)}
    assert widths <= {5, 6, 8}  # budget, parts and files tables: their cells plus one


def test_the_files_table_shows_the_interface_statistics():
    page = rendered(render_markdown(hostile_report()))
    header, row = page.tables[0]
    assert header == ["File", "Format", "Vertices", "Triangles", "Materials", "PBR", "Animations"]
    assert row[1:] == ["GLB", "3", "1", "1", "yes", "0"]


def test_folded_locations_are_parsed_as_markdown_inside_details():
    page = rendered(render_markdown(hostile_report(occurrences=FOLD_AFTER + 2)))
    (folded,) = [text for text in page.details if "more locations" in text]
    assert visible(f"{STORED_HOSTILE}.glb /meshes/{FOLD_AFTER + 1}") in folded  # escapes undone
    assert page.tags.count("details") == 2  # the meshes table and the locations


def test_occurrences_beyond_the_reports_cap_are_counted_in_the_list():
    report = hostile_report(occurrences=2)
    report["issues"][0]["count"] = 150
    page = rendered(render_markdown(report))
    assert "and 148 more not kept in the report" in page.text


def test_long_tables_fold_beyond_the_first_rows():
    report = hostile_report()
    mesh = report["result"]["meshes"][0]
    report["result"]["meshes"] = [{**mesh, "filename": f"{i}.glb"} for i in range(FOLD_ROWS + 4)]
    page = rendered(render_markdown(report))
    files, more_files = page.tables[:2]
    assert len(files) == FOLD_ROWS + 1 and len(more_files) == 4 + 1
    assert "4 more" in page.details[0]


@pytest.mark.parametrize("report", [hostile_report(), failed_report()], ids=["done", "failed"])
def test_the_first_line_is_a_heading_naming_the_file(report):
    page = rendered(render_markdown(report))
    assert page.tags[0] == "h1"


def test_a_failed_job_has_no_tables_and_says_what_to_do():
    markdown = render_markdown(failed_report())
    page = rendered(markdown)
    assert page.tables == [] and "script" not in page.tags
    assert "What to do:" in markdown
