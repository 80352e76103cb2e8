"""The three.js bundle the 3D viewer ships (``web/static/vendor/``) is the one its build script
makes from the pinned version: its sums match, its banner names that version, and it has
nothing the page's content security policy would refuse."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
VENDOR = ROOT / "web" / "static" / "vendor"
BUILD = ROOT / "tools" / "three"


def test_the_vendored_files_match_their_recorded_sha256_sums():
    sums = dict(
        reversed(line.split("  ")) for line in (VENDOR / "SHA256SUMS").read_text().splitlines()
    )
    assert set(sums) == {"three.bundle.min.js", "three.LICENSE"}
    for name, digest in sums.items():
        assert hashlib.sha256((VENDOR / name).read_bytes()).hexdigest() == digest, name


def test_the_bundle_is_the_pinned_three_version_and_the_lock_agrees():
    pinned = json.loads((BUILD / "package.json").read_text())["dependencies"]["three"]
    locked = json.loads((BUILD / "package-lock.json").read_text())
    assert locked["packages"]["node_modules/three"]["version"] == pinned
    banner = (VENDOR / "three.bundle.min.js").read_text()[:200]
    assert banner.startswith(f"/* three.js {pinned} (MIT")
    assert "MIT License" in (VENDOR / "three.LICENSE").read_text()


def test_the_bundle_needs_neither_eval_nor_webassembly():
    code = (VENDOR / "three.bundle.min.js").read_text()
    for refused in ("eval(", "new Function(", "WebAssembly."):
        assert refused not in code, refused
