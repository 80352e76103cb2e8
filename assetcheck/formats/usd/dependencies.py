"""The paths a USD layer names (sublayers, references, payloads, asset paths), judged before
the stage is composed: runs in the reader's child, with ``pxr`` loaded.

A path that leaves the package (or, for a layer on its own, the folder it is read from) is a
security finding; the layers such paths name are muted, so USD never opens them. In a package,
a path inside that resolves to nothing is ``USD_MISSING_DEPENDENCY``, and layers named by paths
inside are followed, so their own paths are judged too. A layer on its own is read alone: the
relative paths it names are handed to the reader, which looks them up in the upload, and the
layers they name are muted too (``docs/usd.md``). (Pixar's MissingReferenceValidator judges the
same, but opens every dependency, those that leave the package included: it is not run.)
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Any

from assetcheck.issues.findings import Findings

_SCHEME_OR_DRIVE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
_PACKAGED = re.compile(r"^.*\[(.*)\]$")
LAYER_EXTENSIONS = (".usd", ".usda", ".usdc", ".usdz")


@dataclass
class Dependencies:
    """What the walk of the layers found: the layer identifiers to mute, and the findings."""

    muted: list[str] = field(default_factory=list)
    #: The paths the findings or the reader report, as written (validator errors naming them
    #: are not reported again).
    reported: set[str] = field(default_factory=set)
    findings: Findings = field(default_factory=Findings)
    #: For a layer on its own: the relative paths it names, as ``(kind, path)``.
    beside: list[tuple[str, str]] = field(default_factory=list)


def leaving_reason(path: str, folder: str) -> str | None:
    """``USD_EXTERNAL_PATH`` or ``USD_PATH_TRAVERSAL`` when ``path``, written in a layer whose
    folder inside the package is ``folder``, leaves the package; None when it stays inside."""
    written = path.replace("\\", "/")
    if written.startswith("/") or _SCHEME_OR_DRIVE.match(written):
        return "USD_EXTERNAL_PATH"
    if posixpath.normpath(posixpath.join(folder, written)).startswith(".."):
        return "USD_PATH_TRAVERSAL"
    return None


def walk_dependencies(root: Any, packaged: bool) -> Dependencies:
    """Judge every path of the ``Sdf.Layer`` ``root`` and, when it is a ``packaged`` one, of
    the layers it reaches inside the package, each layer once."""
    from pxr import Ar, Sdf, UsdUtils

    found = Dependencies()
    seen = {root.identifier}
    queue = [root]
    while queue:
        layer = queue.pop(0)
        folder = posixpath.dirname(_inner_path(layer.identifier))
        sublayers, references, payloads = UsdUtils.ExtractExternalReferences(layer.identifier)
        composed = set(layer.GetCompositionAssetDependencies())
        named = [("sublayer", p) for p in sublayers] + [("payload", p) for p in payloads]
        named += [("reference" if p in composed else "asset path", p) for p in references]
        for kind, path in named:
            code = leaving_reason(path, folder)
            identifier = layer.ComputeAbsolutePath(path)
            if code is not None or not packaged:
                if code is not None:
                    found.findings.add(code, path=path, kind=kind)
                else:
                    found.beside.append((kind, path))
                found.reported.add(path)
                if kind != "asset path":
                    found.muted.append(identifier)
                continue
            if "<UDIM>" not in path and not Ar.GetResolver().Resolve(identifier):
                found.findings.add("USD_MISSING_DEPENDENCY", path=path, kind=kind)
                found.reported.add(path)
                continue
            if kind == "asset path" or not path.lower().endswith(LAYER_EXTENSIONS):
                continue
            if identifier not in seen:
                seen.add(identifier)
                reached = Sdf.Layer.FindOrOpen(identifier)
                if reached is not None:
                    queue.append(reached)
    return found


def _inner_path(identifier: str) -> str:
    """A layer's path inside its package (``pkg.usdz[dir/a.usda]`` -> ``dir/a.usda``); the
    root layer's own name for a layer outside one."""
    packaged = _PACKAGED.match(identifier)
    return packaged.group(1) if packaged else posixpath.basename(identifier)
