"""Fingerprints: what recognises a finding from one run to the next, whatever else changed.

A finding's fingerprint (``issues[].occurrences[].fingerprint`` of the report) digests:

* the file of the upload it is in (a ZIP member's name; the model file's own name otherwise);
* where it points, as a *stable pointer*: its glTF JSON pointer with each array index replaced
  by what identifies the item without its position (:meth:`Fingerprints.stable_pointer`);
* its message with every number standing alone outside quotes left out: names (which messages
  quote) tell findings apart, counts and indices change with unrelated edits.

Its code is no part of it: a baseline pairs findings by file, code and fingerprint. Byte
offsets are left out too (any edit before them moves them). ``docs/ci.md`` ("How a finding is
recognised") states the rule for users.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, TypeGuard

#: Keys whose integer values index an array of the document, and that array: a digest of an
#: item's content puts the referenced item's digest in their place, as reordering that array
#: changes the index without changing the item. ``attributes`` and morph ``targets`` map names
#: to accessors.
_REFERENCES = {
    "bufferView": "bufferViews",
    "camera": "cameras",
    "children": "nodes",
    "index": "textures",
    "indices": "accessors",
    "input": "accessors",
    "inverseBindMatrices": "accessors",
    "joints": "nodes",
    "material": "materials",
    "mesh": "meshes",
    "node": "nodes",
    "output": "accessors",
    "skeleton": "nodes",
    "skin": "skins",
    "source": "images",
}
_ACCESSOR_MAPS = frozenset({"attributes", "targets"})
_ARRAYS = frozenset(_REFERENCES.values())
#: Keys whose values are positions that no content identifies: left out of digests (a buffer
#: view's ``byteOffset`` moves when an earlier one does; ``sampler`` and ``scene`` index arrays
#: whose items have no content of their own worth telling apart).
_POSITIONS = frozenset({"buffer", "byteOffset", "sampler", "scene"})
#: A quoted text (kept whole), or a number standing alone (``12``, ``-0.5``, ``1e-7``, ``40,000``
#: with its thousands separators; not the ``001`` of ``Cube.001`` nor the ``2`` of ``lod2``,
#: which are parts of names).
_QUOTED_OR_NUMBER = re.compile(
    r"'[^']*'|\"[^\"]*\"|(?<![\w.])[-+]?(?:\d{1,3}(?:,\d{3})+(?!\d)|\d+)(?:\.\d+)?"
    r"(?:[eE][-+]?\d+)?(?!\w)"
)
#: What a digest hashes: ``json.dumps(..., sort_keys=True, ensure_ascii=False, default=str)``,
#: with the encoder made once.
_DIGESTED_JSON = json.JSONEncoder(sort_keys=True, ensure_ascii=False, default=str)
#: The types of the document's values that hold nothing to resolve (unless a reference).
_LEAVES = frozenset({str, int, float, bool, type(None)})
_NOT_MAPPINGS = _LEAVES | {list}


class Fingerprints:
    """The fingerprints of the findings of one model file, whose glTF JSON is ``document``
    (None for FBX, or a file its reader could not read). Each array's names and digests are
    worked out once, however many findings point into it."""

    def __init__(self, document: Any) -> None:
        self.document = document
        self._names: dict[int, Counter[Any]] = {}
        self._referents: dict[tuple[str, int], Any] = {}
        self._parents: dict[int, int] | None = None
        self._contents: dict[int, list[str]] = {}
        #: The arrays of the document that references index, each looked up once.
        self._arrays = (
            {name: document.get(name) for name in _ARRAYS} if _is_mapping(document) else {}
        )

    def of(self, message: str, pointer: str | None, file: str | None) -> str:
        """The fingerprint of a finding: 32 hex digits digesting ``file``, the stable form of
        ``pointer`` and ``message`` without its numbers."""
        where = self.stable_pointer(pointer) if pointer is not None else ""
        text = "\0".join((file or "", where, message_identity(message)))
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]

    def stable_pointer(self, pointer: str) -> str:
        """``pointer`` (RFC 6901) with each array index replaced by the item's identity
        (:meth:`identity`); the tokens past a value the document lacks stay as written."""
        if not pointer:
            return ""
        value = self.document
        tokens = []
        for token in pointer[1:].split("/"):
            if isinstance(value, list) and token.isdigit() and int(token) < len(value):
                tokens.append(self.identity(value, int(token)))
                value = value[int(token)]
            elif _is_mapping(value):
                tokens.append(token)
                value = value.get(token.replace("~1", "/").replace("~0", "~"))
            else:
                tokens.append(token)
                value = None
        return "/" + "/".join(tokens)

    def identity(self, items: list[Any], index: int) -> str:
        """What identifies ``items[index]`` whatever its position, escaped as a pointer token:

        * ``name=NAME`` when it has a name no sibling shares;
        * else ``content=DIGEST`` of its content, each index of another item in it replaced by
          that item's digest (an accessor is known by its type, count and bounds, a mesh by
          its primitives' accessors and materials), with ``+N`` (its rank among its twins)
          when siblings have the same;
        * a node of the document's ``nodes`` is known by where it hangs too: its ancestors'
          identities, each followed by ``>``, lead its own;
        * ``#INDEX`` for an item that is not a JSON object.
        """
        identity = self._own_identity(items, index)
        nodes = self.document.get("nodes") if _is_mapping(self.document) else None
        if items is nodes:
            if self._parents is None:
                self._parents = _parents(nodes)
            seen = {index}
            parent = self._parents.get(index)
            while parent is not None and parent not in seen:
                seen.add(parent)
                identity = f"{self._own_identity(nodes, parent)}>{identity}"
                parent = self._parents.get(parent)
        return identity.replace("~", "~0").replace("/", "~1")

    def _own_identity(self, items: list[Any], index: int) -> str:
        item = items[index]
        if not _is_mapping(item):
            return f"#{index}"
        names = self._names.get(id(items))
        if names is None:
            names = self._names[id(items)] = Counter(_name(x) for x in items)
        name = item.get("name")
        if isinstance(name, str) and names[name] == 1:
            return f"name={name}"
        identities = self._contents.get(id(items))
        if identities is None:
            identities = self._contents[id(items)] = self._content_identities(items)
        return identities[index]

    def _content_identities(self, items: list[Any]) -> list[str]:
        """``content=DIGEST`` of each of ``items``, with ``+N`` where several share it."""
        digests = [self._digest(item) for item in items]
        shared = Counter(digests)
        seen: Counter[str] = Counter()
        identities = []
        for digest in digests:
            identities.append(
                f"content={digest}" + (f"+{seen[digest]}" if shared[digest] > 1 else "")
            )
            seen[digest] += 1
        return identities

    def _digest(self, item: Any) -> str:
        """A digest (12 hex digits) of ``item`` as JSON, each reference replaced by the digest
        of what it references."""
        text = _DIGESTED_JSON.encode(self._resolved(item, ""))
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]

    def _resolved(self, value: Any, key: str) -> Any:
        kind = type(value)
        # _is_mapping, without a call, nor the ABC's check of a list or a leaf (never one).
        if kind is dict or (kind not in _NOT_MAPPINGS and isinstance(value, Mapping)):
            if key in _ACCESSOR_MAPS:
                return {str(k): self._referenced("accessors", v) for k, v in value.items()}
            resolved = {}
            for k, v in value.items():
                if k in _POSITIONS:
                    continue
                name = str(k)
                # A number, a text, a flag: itself, unless it is a reference (whose target's
                # digest _referenced gives, or the value itself when there is no target).
                if type(v) not in _LEAVES:
                    resolved[name] = self._resolved(v, name)
                elif name in _REFERENCES:
                    resolved[name] = self._referenced(_REFERENCES[name], v)
                else:
                    resolved[name] = v
            return resolved
        if kind is list or isinstance(value, list):
            if key in _REFERENCES:
                collection = _REFERENCES[key]
                return [
                    self._referenced(collection, item)
                    if type(item) in _LEAVES
                    else self._resolved(item, key)
                    for item in value
                ]
            # Not references (an accessor's bounds, a matrix): numbers and texts as they are.
            return [item if type(item) in _LEAVES else self._resolved(item, key) for item in value]
        if key in _REFERENCES:
            return self._referenced(_REFERENCES[key], value)
        return value

    def _referenced(self, collection: str, index: Any) -> Any:
        """The digest of ``document[collection][index]``; ``index`` itself when there is no
        such item, or when it references itself through others (a malformed node cycle)."""
        items = self._arrays.get(collection)
        if not isinstance(items, list) or type(index) is not int or not 0 <= index < len(items):
            return index
        key = (collection, index)
        if key not in self._referents:
            self._referents[key] = index  # what a cycle back to this item finds
            self._referents[key] = self._digest(items[index])
        return self._referents[key]


def message_identity(message: str) -> str:
    """``message`` with each number outside quotes replaced by ``#``."""
    return _QUOTED_OR_NUMBER.sub(lambda m: m[0] if m[0][0] in "'\"" else "#", message)


def _name(item: Any) -> Any:
    return item.get("name") if _is_mapping(item) else None


def _is_mapping(value: Any) -> TypeGuard[Mapping[Any, Any]]:
    """``isinstance(value, Mapping)``, answered without the ABC's check for the document's own
    objects (plain dicts)."""
    return type(value) is dict or isinstance(value, Mapping)


def _parents(nodes: list[Any]) -> dict[int, int]:
    """Each node's parent: the first node whose ``children`` list it (a malformed document may
    list it in several, or in its own)."""
    parents: dict[int, int] = {}
    for number, node in enumerate(nodes):
        children = node.get("children") if _is_mapping(node) else None
        for child in children if isinstance(children, list) else []:
            if type(child) is int and child != number:
                parents.setdefault(child, number)
    return parents
