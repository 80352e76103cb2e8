"""The entry points of one group in the installed distributions, found without importlib.metadata.

``importlib.metadata`` imports ``email``, ``zipfile`` and ``csv`` and builds a distribution
object per installed package, tens of milliseconds on every command; plugin discovery needs one
section of a few ``entry_points.txt`` files. They are read here directly, in ``sys.path``
order: the first distribution of a (normalized) name wins, as in ``importlib.metadata``.
Distributions inside zip files on ``sys.path`` are not searched.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator, Sequence
from typing import NamedTuple

from assetcheck.plugins.disabled_names import normalized

_METADATA_FILES = {".dist-info": "METADATA", ".egg-info": "PKG-INFO"}
_SUFFIXES = tuple(_METADATA_FILES)


class _MetadataDir(NamedTuple):
    """A ``.dist-info`` or ``.egg-info`` folder: its path and its name. (Plain strings: ~100
    of them are looked at on every command, where ``pathlib`` would cost milliseconds.)"""

    path: str
    name: str


class PluginEntryPoint(NamedTuple):
    """``name = value`` in the group's section of a distribution's ``entry_points.txt``.

    ``value`` is ``module`` or ``module:attribute.path``; ``distribution`` and ``version`` are
    the distribution's ``Name`` and ``Version`` (None when its metadata lacks them).
    """

    name: str
    value: str
    distribution: str
    version: str | None

    def load(self) -> object:
        """Import the module and return the object the entry point names."""
        module, _, attributes = self.value.partition(":")
        loaded: object = importlib.import_module(module.strip())
        for attribute in filter(None, attributes.strip().split(".")):
            loaded = getattr(loaded, attribute)
        return loaded


def entry_points(group: str, path: Sequence[str] | None = None) -> list[PluginEntryPoint]:
    """Every entry point of ``group`` in the distributions on ``path`` (default ``sys.path``)."""
    found: list[PluginEntryPoint] = []
    seen: set[str] = set()
    for folder in sys.path if path is None else path:
        for metadata_dir, suffix in _distribution_dirs(folder or "."):
            # The folder is named after the distribution (``name-version``): the metadata file
            # is read only for the few distributions with entry points of the group.
            key = normalized(metadata_dir.name[: -len(suffix)].split("-")[0])
            if key in seen:
                continue
            seen.add(key)
            entries = list(_section(_read_lines(metadata_dir, "entry_points.txt", group), group))
            if entries:
                name, version = _name_and_version(metadata_dir, suffix)
                found += [PluginEntryPoint(entry, value, name, version) for entry, value in entries]
    return found


def _distribution_dirs(folder: str) -> Iterator[tuple[_MetadataDir, str]]:
    """The metadata folders in ``folder``, by name. (Its other entries, most of them, are
    passed over by one ``str.endswith`` each: a few hundred on every command.)"""
    try:
        with os.scandir(folder) as scan:
            entries = [entry for entry in scan if entry.name.endswith(_SUFFIXES)]
    except OSError:  # a missing folder or a zip file on sys.path
        return
    for entry in sorted(entries, key=lambda entry: entry.name):
        suffix = next(s for s in _SUFFIXES if entry.name.endswith(s))
        if entry.is_dir():
            yield _MetadataDir(entry.path, entry.name), suffix


def _name_and_version(metadata_dir: _MetadataDir, suffix: str) -> tuple[str, str | None]:
    """``Name`` and ``Version`` from the metadata headers; the folder name when they are absent."""
    headers: dict[str, str] = {}
    for line in _read_lines(metadata_dir, _METADATA_FILES[suffix]):
        if not line.strip():
            break  # the headers end at the first blank line; the long description follows
        key, colon, value = line.partition(":")
        if colon and key in ("Name", "Version"):
            headers.setdefault(key, value.strip())
    fallback = metadata_dir.name[: -len(suffix)].split("-")[0]
    return headers.get("Name") or fallback, headers.get("Version")


def _section(lines: list[str], group: str) -> Iterator[tuple[str, str]]:
    """The ``name = value`` lines of ``[group]`` (an ``[extras]`` suffix of a value dropped)."""
    inside = False
    for line in lines:
        text = line.strip()
        if text.startswith("["):
            inside = text == f"[{group}]"
        elif inside and "=" in text and not text.startswith(("#", ";")):
            name, _, value = text.partition("=")
            yield name.strip(), value.split("[", 1)[0].strip()


def _read_lines(metadata_dir: _MetadataDir, name: str, needle: str = "") -> list[str]:
    """The lines of the file ``name`` in ``metadata_dir``; none if it is missing or does not
    hold ``needle`` (most distributions' entry points name no AssetCheck group)."""
    try:
        with open(os.path.join(metadata_dir.path, name), "rb") as file:
            data = file.read()
    except OSError:
        return []
    if needle.encode() not in data:
        return []
    return data.decode("utf-8", errors="replace").splitlines()
