"""The file formats AssetCheck reads, as plugins register them, and deciding which one a file is.

Every format arrives through the ``register_file_formats`` hook: the built-in ones from their
packages (``formats/gltf``, ``formats/fbx``, ``formats/obj``, ``formats/usd``,
``formats/zip``), others from
plugins, so nothing outside a format's package names it (``docs/architecture.md``, Adding a
format). A file's content decides its format; its name only claims one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, TypedDict

import pluggy

from assetcheck.plugins.manager import built_once

if TYPE_CHECKING:
    from assetcheck.formats.source import ReadContext, SourceFile

#: How many bytes at the start of a file its format is decided from.
SNIFF_BYTES = 4096

#: ``members(container, context)``: the model files inside a container (``FileFormat.members``).
MemberReader = Callable[["SourceFile", "ReadContext"], Iterator["SourceFile"]]


class FormatNames(TypedDict):
    """The fields that name the formats in messages about an upload's type."""

    #: Every format: ``GLB, glTF, FBX, OBJ, USD or ZIP``.
    formats: str
    #: The model formats: ``GLB, glTF, FBX, OBJ or USD``.
    model_formats: str
    #: The container formats: ``ZIP``.
    container_formats: str


@dataclass(frozen=True)
class FileFormat:
    """A format AssetCheck reads: how its files are named and recognised, and what they hold.

    A *model* format's files go to the ``read_asset`` hooks; a *container*'s (one with
    ``members``) are expanded into the model files inside them. Give ``magic``, ``recognise``
    or both: content is recognised by every format's ``magic`` first, then by every format's
    ``recognise`` (:meth:`FormatRegistry.sniff`).
    """

    #: Short and lower case: the ``SourceFile.kind`` and ``Asset.format`` of its files, what
    #: ``Check.formats`` lists and ``FILE_TYPE_MISMATCH`` names (``glb``, ``zip``).
    name: str
    #: How messages name it (``GLB``, ``glTF``).
    title: str
    #: The file-name endings that claim it, lower case with the dot (``(".glb",)``): what
    #: ``assetcheck validate`` picks in folders; the first is the one a rename is advised to.
    extensions: tuple[str, ...]
    #: Byte strings its content starts with (``(b"glTF",)``).
    magic: tuple[bytes, ...] = ()
    #: ``recognise(head)``: whether content starting with ``head`` (its first ``SNIFF_BYTES``)
    #: is of this format, for content without a fixed start (text formats); asked only when no
    #: format's ``magic`` matched. ``assetcheck.formats.registry.leading_text`` finds where text
    #: starts.
    recognise: Callable[[bytes], bool] | None = None
    #: ``members(source, context)`` for a container: yields the model files inside it, scanning
    #: each on the way, counting each member inspected in ``context.scanned_files`` and reporting
    #: what is wrong into ``context.issues`` (never raising). None for a model format.
    members: MemberReader | None = None
    #: Inside an archive, content of this format is a model file only when its name claims
    #: some registered format (JSON beside the models, ``meta.json``, is data, not a glTF).
    named_in_archives: bool = False
    #: The name of a format whose content is of this one when this one's ``recognise`` accepts
    #: it too: a special case decided by content (a USDZ package is a ZIP whose first member is
    #: a USD layer).
    refines: str | None = None

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.lower():
            raise ValueError(f"file format names are lower case: {self.name!r}")
        if not self.extensions or any(
            not e.startswith(".") or e != e.lower() for e in self.extensions
        ):
            raise ValueError(
                f"file format {self.name!r}: extensions are lower case and start with a dot, "
                f"and there is at least one: {self.extensions!r}"
            )
        if not self.magic and self.recognise is None:
            raise ValueError(f"file format {self.name!r}: give its magic or a recognise test")
        if self.refines is not None and self.recognise is None:
            raise ValueError(f"file format {self.name!r} refines another: give its recognise test")

    @property
    def is_container(self) -> bool:
        """Whether its files hold model files rather than being one."""
        return self.members is not None

    def matches(self, head: bytes) -> bool:
        """Whether content starting with ``head`` passes this format's own tests (whatever
        other formats would say of it)."""
        head = head[:SNIFF_BYTES]
        return head.startswith(self.magic) or (self.recognise is not None and self.recognise(head))


def leading_text(head: bytes) -> bytes:
    """Where the text of ``head`` starts: without a UTF-8 byte order mark and leading blanks."""
    return head.removeprefix(b"\xef\xbb\xbf").lstrip()


class FormatRegistry:
    """The registered file formats in registration order (the built-in ones first); a name
    and an extension belong to one format only."""

    def __init__(self, formats: Iterable[FileFormat] = ()) -> None:
        self._formats: dict[str, FileFormat] = {}
        self._by_extension: dict[str, FileFormat] = {}
        for file_format in formats:
            self.add(file_format)

    def add(self, file_format: FileFormat) -> None:
        """Register ``file_format``; ``ValueError`` when its name or an extension is taken."""
        if file_format.name in self._formats:
            raise ValueError(f"file format {file_format.name!r} is registered twice")
        for extension in file_format.extensions:
            taken = self._by_extension.get(extension)
            if taken is not None:
                raise ValueError(
                    f"file formats {taken.name!r} and {file_format.name!r} both claim {extension}"
                )
        self._formats[file_format.name] = file_format
        self._by_extension.update(dict.fromkeys(file_format.extensions, file_format))

    def __getitem__(self, name: str) -> FileFormat:
        return self._formats[name]

    def __iter__(self) -> Iterator[FileFormat]:
        return iter(self._formats.values())

    @property
    def extensions(self) -> frozenset[str]:
        """Every extension that claims a format."""
        return frozenset(self._by_extension)

    @property
    def model_formats(self) -> frozenset[str]:
        """The names of the model formats (those the ``read_asset`` hooks read)."""
        return frozenset(f.name for f in self if not f.is_container)

    def sniff(self, head: bytes) -> str | None:
        """The format of content starting with ``head`` (at least its first ``SNIFF_BYTES``),
        or None: the first format whose magic starts it, else the first whose ``recognise``
        accepts it, each in registration order; then a format that ``refines`` the one found,
        if its ``recognise`` accepts the content too."""
        head = head[:SNIFF_BYTES]
        found = next((f.name for f in self if head.startswith(f.magic)), None)
        if found is None:
            found = next(
                (f.name for f in self if f.recognise is not None and f.recognise(head)), None
            )
        refined = (
            f.name
            for f in self
            if found is not None
            and f.refines == found
            and f.recognise is not None
            and f.recognise(head)
        )
        return next(refined, found)

    def from_name(self, name: str) -> str | None:
        """The format a file name claims by its extension, or None."""
        claimed = self._by_extension.get(PurePosixPath(name).suffix.lower())
        return None if claimed is None else claimed.name

    def refusal(self, head: bytes) -> str | None:
        """The issue code of a file no format reads, decided by its content alone, as for
        every upload and every file given to ``assetcheck validate``: ``EMPTY_FILE`` for no
        bytes, ``UNSUPPORTED_FILE_TYPE`` for content :meth:`sniff` finds no format in; None
        when the content is a format's. The service refuses such an upload with this code, the
        validation reports it: one decision and one wording everywhere."""
        if not head:
            return "EMPTY_FILE"
        return "UNSUPPORTED_FILE_TYPE" if self.sniff(head) is None else None

    def classify(
        self, name: str, head: bytes, *, in_archive: bool
    ) -> tuple[str | None, str | None]:
        """The format to read a file as, and the format its name wrongly claims (or None).

        Content decides. An upload whose content matches nothing is no format's (see
        :meth:`refusal`, asked first). Inside an archive, a member whose content matches
        nothing is read as the format its name claims, so that format's reader explains what
        is wrong with a file the archive names as a model (``GLB_INVALID_MAGIC`` beats
        "unsupported"); and a format that is ``named_in_archives`` counts only when the name
        claims some format.
        """
        claimed = self.from_name(name)
        actual = self.sniff(head)
        if actual is None:
            return (claimed if in_archive else None), None
        if in_archive and claimed is None and self[actual].named_in_archives:
            return None, None
        return actual, claimed if claimed is not None and claimed != actual else None

    def titles(self, *, models: bool = True, containers: bool = True) -> str:
        """The titles of the model formats, the container formats or both, as a message names
        them: ``GLB, glTF, FBX, OBJ, USD or ZIP``."""
        wanted = [f.title for f in self if (containers if f.is_container else models)]
        return " or ".join(filter(None, (", ".join(wanted[:-1]), *wanted[-1:])))

    def message_fields(self) -> FormatNames:
        """The fields that name the formats in messages about an upload's type (``titles``)."""
        return FormatNames(
            formats=self.titles(),
            model_formats=self.titles(containers=False),
            container_formats=self.titles(models=False),
        )


def format_registry(pm: pluggy.PluginManager) -> FormatRegistry:
    """The file formats every plugin of ``pm`` registers, in registration order.

    Built once per plugin manager, again only when the hook's implementations change. Raises
    ``ValueError`` when two formats share a name or an extension.
    """
    return built_once(pm, "register_file_formats", _registered)


def _registered(hook: pluggy.HookCaller) -> FormatRegistry:
    # A hook runs the plugins last registered first: reversed, its answers are in the order
    # the plugins were registered.
    return FormatRegistry(file_format for group in reversed(hook()) for file_format in group)
