"""Packages import each other in one direction only (``docs/architecture.md``):

- in the service layer, the API (``service.api``) and the dashboard (``service.dashboard``)
  both build on ``service.webapp`` and never import each other; only the application factory
  (``service.app``) assembles the two;
- ``jobs``, ``previews``, ``accounts``, ``webhooks`` and ``observability`` import neither of
  them, nor ``webapp``;
- the configuration (``config``) imports nothing of the service layer, which takes its typed
  settings;
- no package imports a check module: checks reach the engine through the plugin manager alone;
- no two packages import each other, directly or around a loop.

Read from the source with ``ast``, so a lazy import inside a function counts too, and so does
``lazy_module("assetcheck...")``; an import under ``if TYPE_CHECKING:`` does not (it never
runs).
"""

import ast
from functools import cache
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "assetcheck"

#: Packages that hold other packages: their subpackages are the units boundaries are drawn
#: between.
CONTAINERS = ("service", "formats")

#: unit -> units it must never import.
FORBIDDEN = {
    "config": {"service"},
    "service.api": {"service.dashboard"},
    "service.dashboard": {"service.api"},
    "service.jobs": {"service.api", "service.dashboard", "service.webapp"},
    "previews": {"service"},
    "service.accounts": {"service.api", "service.dashboard", "service.webapp", "service.jobs"},
    "service.webhooks": {"service.api", "service.dashboard", "service.webapp"},
    "service.observability": {"service.api", "service.dashboard", "service.webapp"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def all_modules() -> dict[str, Path]:
    """Every module of the package by name, read once per session (callers do not change it)."""
    return {
        module_name(path): path
        for path in PACKAGE.rglob("*.py")
        if "template" not in path.relative_to(PACKAGE).parts
    }


@cache
def imported_modules(path: Path) -> frozenset[str]:
    """The ``assetcheck`` modules the module at ``path`` imports when it runs: ``from package
    import module`` names the module, ``from module import name`` the module. Each file is
    parsed once per session: the tests ask about every module several times."""
    tree = ast.parse(path.read_text())
    type_only = {
        id(node)
        for branch in ast.walk(tree)
        if isinstance(branch, ast.If) and "TYPE_CHECKING" in ast.unparse(branch.test)
        for statement in branch.body
        for node in ast.walk(statement)
    }
    known = all_modules().keys()
    names = set()
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & known
            names |= submodules
            if len(submodules) < len(node.names):
                names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif _is_lazy_import(node):
            names.add(node.args[0].value)
    return frozenset(
        name for name in names if name == "assetcheck" or name.startswith("assetcheck.")
    )


def _is_lazy_import(node: ast.AST) -> bool:
    """A call ``lazy_module("name")`` (:mod:`assetcheck.lazy_imports`)."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "lazy_module"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def unit_of(module: str) -> str:
    """The package a module belongs to for boundaries: ``formats.gltf``, ``service.jobs``,
    ``checks``; a loose module (``engine``, ``service.app``) is a unit of its own."""
    parts = module.split(".")[1:]
    depth = 2 if parts and parts[0] in CONTAINERS else 1
    if len(parts) > depth and (PACKAGE.joinpath(*parts[:depth])).is_dir():
        return ".".join(parts[:depth])
    return ".".join(parts) or "assetcheck"


def import_graph() -> dict[str, dict[str, str]]:
    """unit -> {imported unit: one import that makes the edge, for the failure message}."""
    modules = all_modules()
    graph: dict[str, dict[str, str]] = {}
    for name, path in modules.items():
        unit = unit_of(name)
        for imported in imported_modules(path):
            target = unit_of(imported)
            if target not in (unit, "assetcheck"):
                graph.setdefault(unit, {}).setdefault(target, f"{name} imports {imported}")
    return graph


def cycles(graph: dict[str, dict[str, str]]) -> list[list[str]]:
    """The strongly connected components of more than one unit (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(unit: str) -> None:
        index[unit] = low[unit] = len(index)
        stack.append(unit)
        for target in graph.get(unit, {}):
            if target not in index:
                visit(target)
                low[unit] = min(low[unit], low[target])
            elif target in stack:
                low[unit] = min(low[unit], index[target])
        if low[unit] == index[unit]:
            component = []
            while component[-1:] != [unit]:
                component.append(stack.pop())
            if len(component) > 1:
                found.append(sorted(component))

    for unit in sorted(graph):
        if unit not in index:
            visit(unit)
    return found


@pytest.mark.parametrize("unit", sorted(FORBIDDEN))
def test_package_imports_none_of_its_forbidden_neighbours(unit):
    crossings = {}
    for name, path in all_modules().items():
        if unit_of(name) == unit:
            imported = {unit_of(module) for module in imported_modules(path)}
            found = {
                target
                for target in imported
                for forbidden in FORBIDDEN[unit]
                if target == forbidden or target.startswith(forbidden + ".")
            }
            if found:
                crossings[name] = found
    assert not crossings


def test_only_the_application_factory_assembles_the_api_and_the_dashboard():
    assemblers = {
        name
        for name, path in all_modules().items()
        if {unit_of(module) for module in imported_modules(path)}
        >= {"service.api", "service.dashboard"}
    }
    assert assemblers == {"assetcheck.service.app"}


def test_no_package_imports_a_check_module():
    check_modules = {name for name in all_modules() if name.startswith("assetcheck.checks.")}
    importers = {
        name: imported_modules(path) & check_modules
        for name, path in all_modules().items()
        if imported_modules(path) & check_modules
    }
    assert not importers


def test_no_two_packages_import_each_other():
    graph = import_graph()
    found = cycles(graph)
    edges = [
        graph[unit][target]
        for component in found
        for unit in component
        for target in graph.get(unit, {})
        if target in component
    ]
    assert not found, edges


def test_the_cycle_finder_sees_a_loop_of_three():
    graph = {"a": {"b": ""}, "b": {"c": ""}, "c": {"a": ""}, "d": {"a": ""}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_the_boundary_reader_sees_lazy_imports_and_skips_type_only_ones(tmp_path):
    module = tmp_path / "lazy.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from assetcheck.service.api import handlers\n"
        "else:\n"
        "    handlers = lazy_module('assetcheck.service.api.handlers')\n"
        "def run():\n"
        "    from assetcheck.service.dashboard.handlers import jobs\n"
    )
    assert imported_modules(module) == {
        "assetcheck.service.api.handlers",
        "assetcheck.service.dashboard.handlers.jobs",
    }
