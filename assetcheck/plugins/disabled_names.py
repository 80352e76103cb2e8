"""What each name of ``[plugins] disabled`` means: a plugin, a check, or a mistake to warn of."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from assetcheck.plugins.errors import did_you_mean


def normalized(distribution: str) -> str:
    """A distribution name as packaging compares them: ``Assetcheck_Naming`` is
    ``assetcheck-naming``."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def disabled_warnings(
    disabled: Iterable[str],
    *,
    plugins: Collection[str],
    checks: Collection[str],
    distributions: Mapping[str, Sequence[str]],
) -> list[str]:
    """One warning for each disabled name that blocks nothing.

    ``plugins`` are every plugin name that could load (built-ins, entry points, files of the
    plugins folder), ``checks`` every check name (``name`` and ``plugin:name``), and
    ``distributions`` the plugin names each installed distribution provides, by normalized
    distribution name: disabling a distribution by its package name is a common mistake.
    """
    warnings = []
    for name in disabled:
        if name in plugins or name in checks:
            continue
        provided = distributions.get(normalized(name))
        if provided:
            warnings.append(
                f"[plugins] disabled: {name!r} is a package, not a plugin; block its plugin by "
                f"name: {', '.join(repr(p) for p in provided)}"
            )
        else:
            warnings.append(
                f"[plugins] disabled: no plugin or check is named {name!r}"
                f"{did_you_mean(name, [*plugins, *checks])}; `assetcheck plugins` lists them"
            )
    return warnings
