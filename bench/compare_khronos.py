"""Compare AssetCheck's glTF verdicts and error codes with Khronos glTF-Validator's.

    npm install --prefix bench gltf-validator        # the reference, once
    python bench/compare_khronos.py /usr/share/assimp/models tests/assets/gltf

Every ``.gltf`` and ``.glb`` under the given folders is validated by both. The verdict is
"has an error-severity issue or not"; code recall is the share of Khronos' error codes (per
file) that AssetCheck reports too, counting the equivalences in :data:`EQUIVALENT` (AssetCheck
reports its own security codes for URIs it refuses to follow). glTF 1.0 files are left out
unless ``--all-versions`` is given. Every disagreement is printed with both code sets.
Relative resources are read only inside each file's own folder; URIs with a scheme or an
absolute path are refused, never fetched (Khronos then reports IO_ERROR).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tools.record_khronos_counts import error_codes, run_khronos  # noqa: E402

#: AssetCheck's code -> the Khronos error codes it stands for.
EQUIVALENT = {
    "GLTF_EXTERNAL_URI": frozenset({"NON_RELATIVE_URI", "IO_ERROR", "INVALID_URI"}),
    "GLTF_PATH_TRAVERSAL": frozenset({"IO_ERROR"}),
    "GLTF_DATA_URI_MISMATCH": frozenset({"INVALID_URI"}),
}


@dataclass(frozen=True)
class Comparison:
    name: str
    khronos: frozenset[str]
    ours: frozenset[str]

    @property
    def covered(self) -> frozenset[str]:
        """Khronos' error codes that AssetCheck reports, directly or by an equivalent code."""
        equivalents = {code for ours in self.ours for code in EQUIVALENT.get(ours, ())}
        return self.khronos & (self.ours | equivalents)

    @property
    def agrees(self) -> bool:
        return bool(self.khronos) == bool(self.ours)


def model_files(folders: list[Path]) -> list[Path]:
    return sorted(
        p
        for folder in folders
        for p in (folder.rglob("*") if folder.is_dir() else [folder])
        if p.suffix.lower() in (".gltf", ".glb")
    )


def our_errors(path: Path) -> tuple[frozenset[str], bool]:
    """AssetCheck's error codes for ``path`` and whether it read a glTF 2.0 document."""
    from assetcheck.engine import validate

    result = validate(path)
    errors = frozenset(i.code for i in result.issues if i.severity == "error")
    return errors, any(asset.document is not None for asset in result.assets)


def compare(
    files: list[Path],
    validator_dir: Path,
    all_versions: bool,
    root: Path,
) -> tuple[str, list[Comparison]]:
    version, reports = run_khronos(validator_dir, files)
    comparisons = []
    for path, report in zip(files, reports, strict=True):
        errors, is_gltf2 = our_errors(path)
        khronos_version = (report["info"] or {}).get("version") or ""
        if not (all_versions or is_gltf2 or khronos_version.startswith("2.")):
            continue
        name = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
        comparisons.append(Comparison(name, error_codes(report), errors))
    return version, comparisons


def summarise(version: str, comparisons: list[Comparison]) -> dict:
    expected = sum(len(c.khronos) for c in comparisons)
    covered = sum(len(c.covered) for c in comparisons)
    agreeing = sum(c.agrees for c in comparisons)
    return {
        "validator": f"gltf-validator {version}",
        "files": len(comparisons),
        "verdict_agreement": agreeing / len(comparisons) if comparisons else 1.0,
        "code_recall": covered / expected if expected else 1.0,
        "disagreements": [
            {"file": c.name, "khronos": sorted(c.khronos), "ours": sorted(c.ours)}
            for c in comparisons
            if not c.agrees
        ],
        "missed_codes": [
            {"file": c.name, "missed": sorted(c.khronos - c.covered)}
            for c in comparisons
            if c.khronos - c.covered
        ],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument(
        "--validator",
        type=Path,
        default=HERE,
        help="folder where `npm install gltf-validator` was run (default: bench)",
    )
    parser.add_argument(
        "--all-versions", action="store_true", help="also compare files that are not glTF 2.0"
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    files = model_files(args.folders)
    version, comparisons = compare(files, args.validator, args.all_versions, Path.cwd())
    summary = summarise(version, comparisons)
    if args.json:
        print(json.dumps(summary, indent=2))
        return 0
    for row in summary["disagreements"]:
        print(f"VERDICT {row['file']}: khronos {row['khronos']} ours {row['ours']}")
    for row in summary["missed_codes"]:
        print(f"MISSED  {row['file']}: {row['missed']}")
    print(
        f"{summary['validator']}: {summary['files']} files, verdict agreement "
        f"{summary['verdict_agreement']:.1%}, error code recall {summary['code_recall']:.1%}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
