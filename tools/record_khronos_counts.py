"""Record Khronos glTF-Validator's statistics for a folder of glTF/GLB files, or compare with ours.

Needs Node.js and the npm package ``gltf-validator`` (``npm install gltf-validator`` in some
folder, passed as ``--validator``). For every ``.gltf`` and ``.glb`` under ``--models`` it
records ``info.totalVertexCount``, ``totalTriangleCount``, ``materialCount`` and
``animationCount`` (null when Khronos gives no ``info``) and the codes of its error-severity
messages, keyed by path relative to ``--models``::

    python tools/record_khronos_counts.py --validator /tmp/kv \\
        --output tests/assets/khronos_counts.json

With ``--compare`` it validates each file with AssetCheck instead of writing, and prints every
file whose counts or error codes differ from the recorded Khronos ones (exit status 1 if any
count differs). Relative resources are read only inside each file's own folder; URIs with a
scheme or an absolute path are refused, never fetched.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

DEFAULT_MODELS = Path("/usr/share/assimp/models")
DEFAULT_OUTPUT = Path(__file__).resolve().parents[1] / "tests" / "assets" / "khronos_counts.json"
COUNT_KEYS = ("totalVertexCount", "totalTriangleCount", "materialCount", "animationCount")

# Reads file paths from argv, prints one JSON line per file.
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
    return {info: report.info || null, messages: report.issues.messages};
  } catch (error) {
    return {info: null, messages: [], failure: String(error)};
  }
}
(async () => {
  console.log(JSON.stringify({version: validator.version()}));
  for (const file of process.argv.slice(1)) console.log(JSON.stringify(await run(file)));
})();
"""


def model_files(models: Path) -> list[Path]:
    """Every glTF and GLB file under ``models``, sorted."""
    return sorted(p for p in models.rglob("*") if p.suffix.lower() in (".gltf", ".glb"))


def run_khronos(validator_dir: Path, files: list[Path]) -> tuple[str, list[dict]]:
    """Khronos' version string and one ``{info, messages}`` report per file."""
    env = dict(os.environ, NODE_PATH=str(validator_dir / "node_modules"))
    completed = subprocess.run(
        ["node", "-e", _NODE_SCRIPT, *map(str, files)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    header, *reports = [json.loads(line) for line in completed.stdout.splitlines()]
    return header["version"], reports


def error_codes(report: dict) -> frozenset[str]:
    """Khronos' error codes in one report; ``VALIDATOR_FAILED`` when the validator crashed."""
    if "failure" in report:
        return frozenset({"VALIDATOR_FAILED"})
    return frozenset(m["code"] for m in report["messages"] if m["severity"] == 0)


def summarise(report: dict) -> dict:
    """The four counts (or None) and the sorted error codes of one Khronos report."""
    info = report["info"]
    summary = {
        "counts": None if info is None else {key: info[key] for key in COUNT_KEYS},
        "errors": sorted({m["code"] for m in report["messages"] if m["severity"] == 0}),
    }
    if "failure" in report:
        summary["failure"] = report["failure"]
    return summary


def record(validator_dir: Path, models: Path, output: Path) -> None:
    files = model_files(models)
    version, reports = run_khronos(validator_dir, files)
    recorded = {
        "validator": f"gltf-validator {version}",
        "models": str(models),
        "files": {
            path.relative_to(models).as_posix(): summarise(report)
            for path, report in zip(files, reports, strict=True)
        },
    }
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(recorded, indent=2, sort_keys=True) + "\n")
    print(f"recorded {len(files)} files with gltf-validator {version} to {output}")


def our_summary(path: Path) -> dict:
    """AssetCheck's four counts and error codes for one file, shaped like :func:`summarise`."""
    from assetcheck.engine import validate

    result = validate(path)
    asset = result.assets[0] if result.assets else None
    counts = (
        None
        if asset is None
        else dict(
            zip(
                COUNT_KEYS,
                (
                    asset.vertex_count,
                    asset.triangle_count,
                    asset.material_count,
                    asset.animation_count,
                ),
                strict=True,
            )
        )
    )
    errors = sorted({issue.code for issue in result.issues if issue.severity == "error"})
    return {"counts": counts, "errors": errors}


def compare(recorded_path: Path, models: Path) -> int:
    recorded = json.loads(recorded_path.read_text())["files"]
    count_differences = 0
    for name, theirs in sorted(recorded.items()):
        ours = our_summary(models / name)
        expected = theirs["counts"] or dict.fromkeys(COUNT_KEYS, 0)
        if ours["counts"] != expected:
            count_differences += 1
            print(f"COUNTS {name}: khronos {theirs['counts']} ours {ours['counts']}")
        missing = sorted(set(theirs["errors"]) - set(ours["errors"]))
        extra = sorted(set(ours["errors"]) - set(theirs["errors"]))
        if missing or extra:
            print(f"ERRORS {name}: only khronos {missing} only ours {extra}")
    print(f"{len(recorded)} files, {count_differences} with different counts")
    return 1 if count_differences else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", type=Path, default=DEFAULT_MODELS)
    parser.add_argument(
        "--output",
        type=Path,
        default=DEFAULT_OUTPUT,
        help="the JSON to write, or to compare with (--compare)",
    )
    parser.add_argument(
        "--validator", type=Path, help="folder where `npm install gltf-validator` was run"
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="compare AssetCheck with the recorded counts instead of recording",
    )
    args = parser.parse_args(argv)
    if args.compare:
        return compare(args.output, args.models)
    if args.validator is None:
        parser.error("--validator is needed to record")
    record(args.validator, args.models, args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
