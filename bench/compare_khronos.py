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
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: AssetCheck's code -> the Khronos error codes it stands for.
EQUIVALENT = {
    "GLTF_EXTERNAL_URI": frozenset({"NON_RELATIVE_URI", "IO_ERROR", "INVALID_URI"}),
    "GLTF_PATH_TRAVERSAL": frozenset({"IO_ERROR"}),
    "GLTF_DATA_URI_MISMATCH": frozenset({"INVALID_URI"}),
}

# Reads file paths from argv, prints one JSON line per file: {version} first.
_NODE_SCRIPT = r"""
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');
async function run(file) {
  const folder = path.dirname(path.resolve(file));
  const load = (uri) => new Promise((resolve, reject) => {
    if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith('/') || uri.startsWith('\\')) {
      reject('refused non-relative URI ' + uri);
      return;
    }
    const target = path.resolve(folder, decodeURIComponent(uri));
    if (!target.startsWith(folder + path.sep)) { reject('refused ' + uri); return; }
    fs.readFile(target, (err, data) => err ? reject(String(err)) : resolve(new Uint8Array(data)));
  });
  try {
    const report = await validator.validateBytes(new Uint8Array(fs.readFileSync(file)), {
      uri: path.basename(file), maxIssues: 0, writeTimestamp: false,
      externalResourceFunction: load,
    });
    const errors = report.issues.messages.filter((m) => m.severity === 0).map((m) => m.code);
    return {errors: [...new Set(errors)], version: report.info ? report.info.version : null};
  } catch (error) {
    return {errors: ['VALIDATOR_FAILED'], failure: String(error)};
  }
}
(async () => {
  console.log(JSON.stringify({version: validator.version()}));
  for (const file of process.argv.slice(1)) console.log(JSON.stringify(await run(file)));
})();
"""


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
    return sorted(p for folder in folders for p in (folder.rglob("*") if folder.is_dir()
                  else [folder]) if p.suffix.lower() in (".gltf", ".glb"))


def run_khronos(validator_dir: Path, files: list[Path]) -> tuple[str, list[dict]]:
    env = dict(os.environ, NODE_PATH=str(validator_dir / "node_modules"))
    completed = subprocess.run(["node", "-e", _NODE_SCRIPT, *map(str, files)], env=env,
                               capture_output=True, text=True, check=True)
    header, *reports = [json.loads(line) for line in completed.stdout.splitlines()]
    return header["version"], reports


def our_errors(path: Path) -> tuple[frozenset[str], bool]:
    """AssetCheck's error codes for ``path`` and whether it read a glTF 2.0 document."""
    from assetcheck.engine import validate

    result = validate(path)
    errors = frozenset(i.code for i in result.issues if i.severity == "error")
    return errors, any(asset.document is not None for asset in result.assets)


def compare(files: list[Path], validator_dir: Path, all_versions: bool, root: Path,
            ) -> tuple[str, list[Comparison]]:
    version, reports = run_khronos(validator_dir, files)
    comparisons = []
    for path, report in zip(files, reports, strict=True):
        errors, is_gltf2 = our_errors(path)
        if not (all_versions or is_gltf2 or (report.get("version") or "").startswith("2.")):
            continue
        name = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
        comparisons.append(Comparison(name, frozenset(report["errors"]), errors))
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
            for c in comparisons if not c.agrees],
        "missed_codes": [
            {"file": c.name, "missed": sorted(c.khronos - c.covered)}
            for c in comparisons if c.khronos - c.covered],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--validator", type=Path, default=HERE,
                        help="folder where `npm install gltf-validator` was run (default: bench)")
    parser.add_argument("--all-versions", action="store_true",
                        help="also compare files that are not glTF 2.0")
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
    print(f"{summary['validator']}: {summary['files']} files, verdict agreement "
          f"{summary['verdict_agreement']:.1%}, error code recall {summary['code_recall']:.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
