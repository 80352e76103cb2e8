"""KTX2 files read structurally, in pure Python: the header, level index, data format
descriptor, key/value data and supercompression data, each checked against the KTX 2.0
specification without inflating or transcoding any level (:func:`parse_ktx2`), and the rules
``KHR_texture_basisu`` adds for glTF (:mod:`assetcheck.formats.ktx2.basisu`).

The parser is imported when one of its names is first used, so importing the package (for its
header or its codes) does not load it: a run without KTX2 images never does.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assetcheck.formats.ktx2.parse import Ktx2Image, parse_ktx2

__all__ = ["Ktx2Image", "parse_ktx2"]


def __getattr__(name: str) -> object:
    """``Ktx2Image`` and ``parse_ktx2``, from :mod:`assetcheck.formats.ktx2.parse` on first use."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from assetcheck.formats.ktx2 import parse

    return getattr(parse, name)
