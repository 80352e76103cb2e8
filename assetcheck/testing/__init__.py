"""Testing AssetCheck plugins: real model bytes, a configured plugin manager, the codes found.

Everything a plugin's tests need ships with AssetCheck:

- builders of real files: :class:`GltfBuilder` (GLB and glTF), :func:`binary_fbx` and
  :func:`ascii_fbx` of a :class:`Scene` (FBX), :func:`zip_of` (ZIP archives),
  :class:`Ktx2Texture` (KTX2 textures for ``KHR_texture_basisu``); the modules
  :mod:`assetcheck.testing.gltf`, :mod:`~assetcheck.testing.fbx`, :mod:`~assetcheck.testing.ktx2`,
  :mod:`~assetcheck.testing.fbx_nodes` and :mod:`~assetcheck.testing.zip` also build broken and
  hostile files byte by byte;
- :func:`plugin_manager` (from config text), :func:`validate_bytes` and :func:`issue_codes`;
- a pytest plugin, loaded automatically wherever AssetCheck is installed, with the fixtures
  ``assetcheck_plugin_manager``, ``assetcheck_issue_codes`` and ``assetcheck_gltf``
  (:mod:`assetcheck.testing.pytest_plugin`).

``docs/plugins.md`` shows them at work.
"""

from assetcheck.testing.fbx import MaterialSpec, MeshSpec, Scene, ascii_fbx, binary_fbx, cube
from assetcheck.testing.gltf import GltfBuilder, Primitive, png_bytes
from assetcheck.testing.harness import issue_codes, plugin_manager, validate_bytes
from assetcheck.testing.ktx2 import Ktx2Texture
from assetcheck.testing.zip import tiny_glb, zip_of

__all__ = [
    "GltfBuilder",
    "Ktx2Texture",
    "MaterialSpec",
    "MeshSpec",
    "Primitive",
    "Scene",
    "ascii_fbx",
    "binary_fbx",
    "cube",
    "issue_codes",
    "plugin_manager",
    "png_bytes",
    "tiny_glb",
    "validate_bytes",
    "zip_of",
]
