"""Engine profiles: the budgets an asset is held to for the engine or store it ships on.

The numbers are documented in ``docs/profiles.md`` (generated, with the source of each limit of
the store profiles, :data:`STORE_PROFILES`) and can be changed per engine in the
``[engines.<name>]`` config section; plugins can add profiles.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

import pluggy

from assetcheck.plugins.hookspecs import hookimpl
from assetcheck.plugins.manager import built_once, by_name
from assetcheck.scoring.budget_codes import ISSUE_TYPES as BUDGET_ISSUE_TYPES


@dataclass(frozen=True)
class Budgets:
    """Limits per engine. ``index_32bit`` says whether 32-bit index buffers are fine there."""

    triangles_per_file: int
    triangles_per_mesh: int
    materials: int
    draw_calls: int
    texture_size: int
    bones: int
    influences_per_vertex: int
    uv_sets: int
    index_32bit: bool
    file_size_mb: int

    def to_dict(self) -> dict[str, int | bool]:
        """Every budget by name, in the order of the fields."""
        return {name: getattr(self, name) for name in _BUDGET_ORDER}

    def updated(self, overrides: Mapping[str, Any]) -> Budgets:
        """These budgets with some replaced (config values: each of its budget's type); an
        unknown budget name is a ``ValueError``."""
        unknown = set(overrides) - BUDGET_NAMES
        if unknown:
            raise ValueError(
                f"unknown budget {', '.join(sorted(unknown))}: known budgets are "
                f"{', '.join(sorted(BUDGET_NAMES | MESH_RULE_NAMES))}"
            )
        return replace(self, **overrides)


@dataclass(frozen=True)
class MeshRules:
    """What an engine expects of mesh topology, texture coordinates and the model's size (issue
    codes ``MESH_OPEN_BOUNDARY``, ``MESH_LIGHTMAP_UV_*``, ``MESH_TEXEL_DENSITY_SPREAD``,
    ``MODEL_EXTREMELY_LARGE`` and ``_SMALL``)."""

    #: The UV set lightmaps are baked from, counted from 0 (``TEXCOORD_<n>`` in glTF, the n-th
    #: UV layer in FBX); -1 when the engine bakes no lightmaps from the file's UVs.
    lightmap_uv_set: int = 1
    #: Whether every mesh must be closed (watertight): 3D printing, physics colliders, shadow
    #: volumes. An open mesh is a finding only then.
    closed_meshes: bool = False
    #: The most the texel density may vary across a model's textured surface (a ratio).
    texel_density_spread: float = 32.0
    #: The smallest and largest plausible model, in metres (the largest side of its world
    #: bounding box): a model outside is most likely in the wrong unit (``docs/scale.md``).
    smallest_size: float = 0.0001
    largest_size: float = 1000.0

    def updated(self, overrides: Mapping[str, Any]) -> MeshRules:
        """These rules with some replaced (config values: each of its rule's type; the caller
        passes only known names)."""
        return replace(self, **overrides)


@dataclass(frozen=True)
class EngineProfile:
    """An engine's budgets, and the severities it gives some codes by default (config can
    still override them per installation in ``[engines.<name>.severity]``)."""

    #: The ``engine`` option that picks the profile (API, CLI, dashboard).
    name: str
    #: What the profile is for, as lists and docs show it.
    title: str
    #: The limits; every field of :class:`Budgets` is required.
    budgets: Budgets
    #: Severities the profile gives some codes instead of the registry's: code -> severity.
    severity: Mapping[str, str] = field(default_factory=dict)
    #: What it expects of topology, UVs and size; plugins' profiles get the defaults.
    mesh_rules: MeshRules = field(default_factory=MeshRules)
    #: The public documents its limits come from (title, version or date, URL), for a profile
    #: of a store or platform's published requirements; empty for an engine's.
    reference: tuple[str, ...] = ()
    #: Where each budget and rule comes from (its key -> the citation), with the profile's
    #: :attr:`reference`; ``docs/profiles.md`` shows them.
    sources: Mapping[str, str] = field(default_factory=dict)


_BUDGET_ORDER = tuple(f.name for f in fields(Budgets))
BUDGET_NAMES = frozenset(_BUDGET_ORDER)
MESH_RULE_NAMES = frozenset(f.name for f in fields(MeshRules))

#: How each mesh rule is called in docs, and what it means.
MESH_RULE_LABELS = {
    "lightmap_uv_set": (
        "Lightmap UV set",
        "The UV set checked as a lightmap (0 is the first: "
        "`TEXCOORD_0` in glTF, the first UV layer in FBX); -1: none is checked.",
    ),
    "closed_meshes": (
        "Closed meshes expected",
        "Whether a mesh with boundary edges is reported (`MESH_OPEN_BOUNDARY`).",
    ),
    "texel_density_spread": (
        "Texel density spread (x)",
        "The largest ratio between the texel "
        "density of the most and the least detailed 5% of the textured "
        "surface (`MESH_TEXEL_DENSITY_SPREAD`).",
    ),
    "smallest_size": (
        "Smallest plausible model (m)",
        "The largest side of the model's world bounding box under which it is most likely in "
        "the wrong unit (`MODEL_EXTREMELY_SMALL`, `docs/scale.md`).",
    ),
    "largest_size": (
        "Largest plausible model (m)",
        "The largest side of the model's world bounding box over which it is most likely in "
        "the wrong unit (`MODEL_EXTREMELY_LARGE`, `docs/scale.md`).",
    ),
}

#: How each budget is called in reports and docs.
BUDGET_LABELS = {
    "triangles_per_file": "Triangles per file",
    "triangles_per_mesh": "Triangles per mesh",
    "materials": "Materials",
    "draw_calls": "Draw calls",
    "texture_size": "Largest texture side (px)",
    "bones": "Bones per skin",
    "influences_per_vertex": "Bone influences per vertex",
    "uv_sets": "UV sets",
    "index_32bit": "32-bit indices allowed",
    "file_size_mb": "File size (MB)",
}

#: What each budget counts, as ``docs/profiles.md`` explains it.
BUDGET_COUNTS = {
    "triangles_per_file": "Triangles of every mesh of the file, each mesh counted once (as in "
    "`result.meshes`), whatever the number of nodes that instance it.",
    "triangles_per_mesh": "Triangles of the largest mesh (glTF mesh or FBX mesh).",
    "materials": "Materials defined in the file, used or not.",
    "draw_calls": "glTF: the primitives of each mesh, once per node that instances the mesh "
    "(every mesh once when no node does). FBX: the materials of each mesh (one "
    "draw per material, at least one per mesh).",
    "texture_size": "The longest side, in pixels, of the largest image the file holds.",
    "bones": "Joints of the largest skin (glTF) or clusters of the most skinned mesh (FBX).",
    "influences_per_vertex": "The most bones any vertex is influenced by: its non-zero "
    "weights over every `JOINTS_n`/`WEIGHTS_n` set (glTF; a document without a readable "
    "model: four per set); FBX: the non-zero weights of a control point over the clusters "
    "of its mesh's skins. Each primitive or mesh with vertices over it is reported with the "
    "count and the first vertex.",
    "uv_sets": "Texture coordinate sets of the primitive or mesh that has the most.",
    "index_32bit": "Whether any primitive uses 32-bit indices (FBX: a mesh of more than 65,535 "
    "vertices).",
    "file_size_mb": "Bytes of the model file itself (not of files beside it), in millions.",
}

_NPOT_MATTERS = {"IMAGE_NPOT_DIMENSIONS": "warning"}
#: Engines with small bone budgets (a joint is a matrix uploaded every frame): a joint no
#: vertex uses is worth removing.
_EVERY_BONE_COSTS = {"SKIN_JOINT_UNUSED": "warning", "FBX_SKIN_BONE_UNUSED": "warning"}
#: Engines that bake lightmaps from the file's second UV set: broken lightmap UVs show.
_LIGHTMAPS_MATTER = {"MESH_LIGHTMAP_UV_OVERLAP": "warning", "MESH_LIGHTMAP_UV_OUTSIDE": "warning"}

#: Engines on a download and memory budget (web pages, phones): a texture larger than the
#: model shows, a one-colour texture or an alpha channel that holds nothing is worth fixing.
_TEXTURE_BYTES_MATTER = {
    "TEXTURE_DENSITY_EXCESSIVE": "warning",
    "TEXTURE_SINGLE_COLOR": "warning",
    "TEXTURE_ALPHA_OPAQUE": "warning",
}

#: Under ``generic`` a budget is advice: an overrun is a warning and never makes a file invalid.
#: A profile for the engine the user ships on keeps the registry's severity (error).
_BUDGETS_ARE_ADVICE = {issue_type.code: "warning" for issue_type in BUDGET_ISSUE_TYPES}

BUILTIN_PROFILES: dict[str, EngineProfile] = {
    profile.name: profile
    for profile in (
        EngineProfile(
            "generic",
            "Any engine (lenient defaults)",
            Budgets(2_000_000, 1_000_000, 64, 500, 8192, 256, 8, 8, True, 500),
            severity=_BUDGETS_ARE_ADVICE,
        ),
        EngineProfile(
            "web",
            "Web viewers: three.js, Babylon.js, model-viewer",
            Budgets(500_000, 200_000, 32, 100, 4096, 128, 4, 2, True, 50),
            severity=_EVERY_BONE_COSTS | _TEXTURE_BYTES_MATTER,
            mesh_rules=MeshRules(lightmap_uv_set=-1, texel_density_spread=16.0),
        ),
        # Unity rescales NPOT textures on import; Unreal neither mipmaps nor streams them.
        EngineProfile(
            "unity",
            "Unity (URP/HDRP)",
            Budgets(1_000_000, 300_000, 32, 300, 8192, 255, 4, 8, True, 200),
            severity=_NPOT_MATTERS | _LIGHTMAPS_MATTER,
        ),
        # Unreal is Z up itself: a Z-up FBX needs no conversion there.
        EngineProfile(
            "unreal",
            "Unreal Engine 5",
            Budgets(5_000_000, 2_000_000, 64, 1000, 8192, 1024, 8, 8, True, 500),
            severity=_NPOT_MATTERS | _LIGHTMAPS_MATTER | {"FBX_Z_UP": "hint"},
        ),
        EngineProfile(
            "godot", "Godot 4", Budgets(1_000_000, 500_000, 32, 500, 8192, 256, 8, 2, True, 200)
        ),
        # Block-compressed texture formats on mobile GPUs want power-of-two sides.
        EngineProfile(
            "mobile",
            "Mobile GPUs (phones, standalone headsets)",
            Budgets(100_000, 50_000, 8, 50, 2048, 64, 4, 2, False, 20),
            severity=_NPOT_MATTERS | _EVERY_BONE_COSTS | _TEXTURE_BYTES_MATTER,
            mesh_rules=MeshRules(texel_density_spread=16.0),
        ),
    )
}


class UnknownEngineError(ValueError):
    """An engine name no profile defines; the message lists the valid ones."""

    def __init__(self, engine: str, known: list[str]) -> None:
        self.engine = engine
        self.known = known
        super().__init__(f"unknown engine {engine!r}: choose one of {', '.join(known)}")


@hookimpl
def register_engine_profiles() -> list[EngineProfile]:
    return list(BUILTIN_PROFILES.values())


def engine_profiles(pm: pluggy.PluginManager) -> dict[str, EngineProfile]:
    """Every registered profile by name; a name registered twice is an error."""
    return dict(_registered_profiles(pm))


def _registered_profiles(pm: pluggy.PluginManager) -> Mapping[str, EngineProfile]:
    """:func:`engine_profiles`, collected once per plugin manager and again when its plugins
    change (:func:`~assetcheck.plugins.manager.built_once`): shared, so never to be changed."""
    return built_once(pm, "register_engine_profiles", _profiles_by_name)


def _profiles_by_name(hook: pluggy.HookCaller) -> Mapping[str, EngineProfile]:
    return by_name(hook(), "engine profile")


def resolve_profile(
    pm: pluggy.PluginManager, engine: str, budget_overrides: Mapping[str, int | bool | float]
) -> EngineProfile:
    """The profile named ``engine`` with the configured overrides applied: budgets and mesh
    rules by their keys; an unknown key is a ``ValueError``."""
    profiles = _registered_profiles(pm)
    if engine not in profiles:
        raise UnknownEngineError(engine, sorted(profiles))
    profile = profiles[engine]
    if not budget_overrides:
        return profile
    rules = {key: value for key, value in budget_overrides.items() if key in MESH_RULE_NAMES}
    budgets = {key: value for key, value in budget_overrides.items() if key not in rules}
    return replace(
        profile,
        budgets=profile.budgets.updated(budgets),
        mesh_rules=profile.mesh_rules.updated(rules),
    )
