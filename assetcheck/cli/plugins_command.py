"""``assetcheck plugins``: what is installed — plugins, checks, engine profiles, formats, codes.

``assetcheck plugins new NAME`` writes a new plugin package instead (:mod:`assetcheck.scaffold`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from assetcheck.config.settings import Config
from assetcheck.formats.registry import format_registry
from assetcheck.plugins.manager import (
    PluginManager,
    build_registry,
    get_plugin_manager,
    registered_checks,
)
from assetcheck.reports import report_formats
from assetcheck.scaffold import new_plugin
from assetcheck.scoring.profiles import engine_profiles


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "plugins", help="list plugins, checks, engine profiles, report formats and issue codes"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.set_defaults(run=run)
    actions = parser.add_subparsers(dest="action", metavar="ACTION")
    new = actions.add_parser(
        "new",
        help="write a new plugin package: pyproject, a check with a setting, tests",
        description="Write the package NAME (a folder of that name): a pyproject with the "
        "assetcheck entry point, a texture size check with a config option, a "
        "README and tests that pass once installed (pip install -e NAME).",
    )
    new.add_argument("name", metavar="NAME", help="the distribution name, e.g. studio-textures")
    new.add_argument(
        "--dir",
        type=Path,
        default=Path("."),
        metavar="FOLDER",
        help="where to write the package folder (default: here)",
    )
    new.set_defaults(run=run_new)
    return parser


def inventory(pm: PluginManager) -> dict[str, Any]:
    """Everything the plugin manager provides, as plain data.

    Each plugin's ``origin`` is ``built-in``, ``package <name> <version>``, ``file <path>`` or
    ``registered in code``; its ``version`` is AssetCheck's for built-ins, the package's for
    installed ones and null for the others.
    """
    model_formats = format_registry(pm).model_formats
    return {
        "plugins": [
            {
                "name": name,
                "origin": pm.origins.get(name, "registered in code"),
                "version": pm.versions.get(name),
            }
            for name, _ in pm.list_name_plugin()
        ],
        "checks": [
            {
                "name": check.name,
                "plugin": plugin,
                "formats": sorted(model_formats if check.formats is None else check.formats),
                "codes": list(check.codes),
                "description": check.description,
            }
            for plugin, check in registered_checks(pm)
        ],
        "engines": [
            {"name": p.name, "title": p.title, "budgets": p.budgets.to_dict()}
            for p in engine_profiles(pm).values()
        ],
        "reportFormats": [
            {"name": f.name, "contentType": f.content_type, "description": f.description}
            for f in report_formats(pm).values()
        ],
        "issueCodes": [
            {
                "code": t.code,
                "severity": t.severity,
                "area": t.area,
                "securityLevel": t.security_level,
            }
            for t in build_registry(pm)
        ],
    }


def run(args: argparse.Namespace, config: Config) -> int:
    data = inventory(get_plugin_manager(config.plugin_config()))
    if args.json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return 0
    out = ["Plugins:"]
    out += [f"  {p['name']:<40} {p['origin']}" for p in data["plugins"]]
    out += ["", "Checks:"]
    out += [f"  {c['name']:<32} {c['plugin']:<32} {', '.join(c['codes'])}" for c in data["checks"]]
    out += ["", "Engine profiles:"]
    out += [f"  {e['name']:<12} {e['title']}" for e in data["engines"]]
    out += ["", "Report formats:"]
    out += [f"  {f['name']:<12} {f['contentType']}" for f in data["reportFormats"]]
    out += ["", f"Issue codes ({len(data['issueCodes'])}):"]
    out += [f"  {c['code']:<40} {c['severity']:<8} {c['area']}" for c in data["issueCodes"]]
    sys.stdout.write("\n".join(out) + "\n")
    return 0


def run_new(args: argparse.Namespace, config: Config) -> int:
    try:
        root = new_plugin(args.name, args.dir)
    except (ValueError, FileExistsError) as error:
        message = f"{error.filename} exists" if isinstance(error, FileExistsError) else error
        print(f"assetcheck plugins new: {message}", file=sys.stderr)
        return 2
    print(f"wrote the plugin package {root}\nnext: pip install -e '{root}[test]' && pytest {root}")
    return 0
