from pathlib import Path

import pytest

from assetcheck.docgen import generated_pages

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.mark.parametrize(("name", "text"), sorted(generated_pages().items()))
def test_generated_reference_page_is_up_to_date(name, text):
    assert (DOCS / name).read_text() == text, (
        f"docs/{name} is stale: run `python tools/generate_docs.py`"
    )
