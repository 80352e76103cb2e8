"""OBJ: a bounded streaming read of the text (:mod:`~assetcheck.formats.obj.parse`), its MTL
materials (:mod:`~assetcheck.formats.obj.mtl`), the polygon meshes it makes and the OBJ part of
the asset model (:mod:`~assetcheck.formats.obj.model`), and its issue codes."""
