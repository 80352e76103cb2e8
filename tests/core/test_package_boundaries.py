"""The packages around the validation core import each other in one direction only:

- ``service`` (the API) and ``dashboard`` both build on ``webapp`` and never import each other;
- ``jobs``, ``previews``, ``accounts``, ``webhooks`` and ``observability`` import neither of
  them, nor ``webapp``;
- in ``webapp``, only the application factory (``webapp.app``) assembles the two.

Read from the source with ``ast``, so a lazy import inside a function counts too.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "assetcheck"

#: package -> packages of assetcheck it must never import.
FORBIDDEN = {
    "service": {"dashboard"},
    "dashboard": {"service"},
    "jobs": {"service", "dashboard", "webapp"},
    "previews": {"service", "dashboard", "webapp", "jobs", "db"},
    "accounts": {"service", "dashboard", "webapp", "jobs"},
    "webhooks": {"service", "dashboard", "webapp"},
    "observability": {"service", "dashboard", "webapp"},
}


def imported_packages(path: Path) -> set[str]:
    """The ``assetcheck`` subpackages the module at ``path`` imports."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            module = node.module
            if module == "assetcheck":  # from assetcheck import db, ...
                names.update(f"assetcheck.{alias.name}" for alias in node.names)
            names.add(module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return {
        name.split(".")[1]
        for name in names
        if name.startswith("assetcheck.") and name.count(".") >= 1
    }


def modules_of(package: str) -> list[Path]:
    return sorted((PACKAGE / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_package_imports_none_of_its_forbidden_neighbours(package):
    modules = modules_of(package)
    assert modules
    crossings = {
        str(path.relative_to(PACKAGE)): imported_packages(path) & FORBIDDEN[package]
        for path in modules
    }
    assert not {module: found for module, found in crossings.items() if found}


def test_only_the_application_factory_assembles_the_api_and_the_dashboard():
    assemblers = {
        str(path.relative_to(PACKAGE))
        for path in modules_of("webapp")
        if imported_packages(path) & {"service", "dashboard"}
    }
    assert assemblers == {"webapp/app.py"}


def test_the_boundary_reader_sees_lazy_imports_inside_functions(tmp_path):
    module = tmp_path / "lazy.py"
    module.write_text("def run():\n    from assetcheck.dashboard.handlers import jobs\n")
    assert imported_packages(module) == {"dashboard"}
