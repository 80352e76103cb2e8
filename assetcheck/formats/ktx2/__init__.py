"""KTX2 files read structurally, in pure Python: the header, level index, data format
descriptor, key/value data and supercompression data, each checked against the KTX 2.0
specification without inflating or transcoding any level (:func:`parse_ktx2`), and the rules
``KHR_texture_basisu`` adds for glTF (:mod:`assetcheck.formats.ktx2.basisu`)."""

from assetcheck.formats.ktx2.parse import Ktx2Image, parse_ktx2

__all__ = ["Ktx2Image", "parse_ktx2"]
