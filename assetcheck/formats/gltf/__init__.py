"""glTF 2.0 and GLB: the readers, the document and its links, accessor data, compressed
geometry (Draco, meshopt), URIs and resources, image data, the JSON schema and the issue codes."""

#: The formats whose assets carry a glTF document (``Asset.document``).
GLTF_FORMATS = frozenset({"gltf", "glb"})
