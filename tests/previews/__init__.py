"""Preview pictures and the viewer's files, drawn as the worker draws them."""

from __future__ import annotations

from pathlib import Path

import pluggy

from assetcheck.engine import validate
from assetcheck.previews.drawing import PreviewWriter


def draw_previews(
    upload: Path, filename: str, plugin_manager: pluggy.PluginManager, *, until: float | None = None
) -> int:
    """Validate ``upload`` (reported as ``filename``) with its previews drawn into its folder,
    as the worker does; how many pictures were drawn."""
    writer = PreviewWriter(upload.parent, until=until)
    validate(upload, filename=filename, plugin_manager=plugin_manager, on_checked=writer)
    return writer.written
