"""Regenerate the reference pages in docs/ from the code: python tools/generate_docs.py"""

from pathlib import Path

from assetcheck.docgen import generated_pages

DOCS = Path(__file__).resolve().parent.parent / "docs"

if __name__ == "__main__":
    for name, text in generated_pages().items():
        (DOCS / name).write_text(text)
        print(f"wrote docs/{name}")
