"""``assetcheck plugins``: what is installed — plugins, checks, engine profiles, formats, codes."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import pluggy

from assetcheck.config import Config
from assetcheck.plugins import build_registry, call_each, get_plugin_manager
from assetcheck.profiles import engine_profiles
from assetcheck.reports import report_formats


def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "plugins", help="list plugins, checks, engine profiles, report formats and issue codes")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    parser.set_defaults(run=run)
    return parser


def inventory(pm: pluggy.PluginManager) -> dict[str, Any]:
    """Everything the plugin manager provides, as plain data."""
    versions = {id(plugin): dist.version for plugin, dist in pm.list_plugin_distinfo()}
    return {
        "plugins": [
            {"name": name, "version": versions.get(id(plugin), "built-in")}
            for name, plugin in pm.list_name_plugin()
        ],
        "checks": [
            {"name": check.name, "plugin": plugin, "formats": sorted(check.formats),
             "codes": list(check.codes), "description": check.description}
            for plugin, checks in call_each(pm.hook.register_checks)
            for check in checks
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
            {"code": t.code, "severity": t.severity, "area": t.area,
             "securityLevel": t.security_level}
            for t in build_registry(pm)
        ],
    }


def run(args: argparse.Namespace, config: Config) -> int:
    data = inventory(get_plugin_manager(config.plugin_config()))
    if args.json:
        sys.stdout.write(json.dumps(data, indent=2) + "\n")
        return 0
    out = ["Plugins:"]
    out += [f"  {p['name']:<40} {p['version']}" for p in data["plugins"]]
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
