"""Meshes and their primitives: attribute semantics and formats, indices, modes, morph targets,
and what the material asks of the primitive (texture coordinates, tangents)."""

from __future__ import annotations

from typing import TypeGuard

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.accessor_bounds import DeclaredBounds
from assetcheck.formats.gltf.accessor_formats import (
    INDICES,
    accessor_format,
    attribute_formats,
    describe,
)
from assetcheck.formats.gltf.extension_uses import material_needs
from assetcheck.formats.gltf.fields import child, extensions_used
from assetcheck.formats.gltf.links import (
    DocumentLinks,
    Primitive,
    resolve,
    semantic_index,
)
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

MODE_NAMES = (
    "POINTS",
    "LINES",
    "LINE_LOOP",
    "LINE_STRIP",
    "TRIANGLES",
    "TRIANGLE_STRIP",
    "TRIANGLE_FAN",
)
MORPH_SEMANTICS = frozenset({"POSITION", "NORMAL", "TANGENT"})

CODES = (
    "MESH_PRIMITIVE_INVALID_ATTRIBUTE",
    "MESH_PRIMITIVE_NO_POSITION",
    "MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL",
    "MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY",
    "MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH",
    "MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS",
    "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT",
    "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT",
    "MESH_PRIMITIVE_ACCESSOR_UNALIGNED",
    "MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT",
    "MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE",
    "MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE",
    "MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT",
    "MESH_PRIMITIVE_INCOMPATIBLE_MODE",
    "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS",
    "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE",
    "MESH_PRIMITIVE_NO_TANGENT_SPACE",
    "MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR",
    "MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT",
    "MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT",
    "MESH_INVALID_WEIGHTS_COUNT",
    "UNUSED_MESH_TANGENT",
)


class _MeshChecker:
    def __init__(self, links: DocumentLinks, bounds: DeclaredBounds, issues: FileIssues) -> None:
        self.links = links
        self.bounds = bounds
        self.issues = issues
        self.extensions = extensions_used(links.document)
        self.accessors = links.items("accessors")
        self.views = links.items("bufferViews")
        #: Accessors seen per buffer view without byteStride (several need a stride).
        self.view_accessors: dict[int, set[int]] = {}

    def check(self) -> None:
        for index, mesh in enumerate(self.links.items("meshes")):
            if mesh is not None:
                self._check_targets_counts(index, mesh)
        for primitive in self.links.primitives:
            self._check_semantics(primitive)
            self._check_attributes(primitive)
            self._check_indices(primitive)
            self._check_mode(primitive)
            self._check_material(primitive)
            self._check_targets(primitive)

    def _check_targets_counts(self, index: int, mesh: dict) -> None:
        primitives = self.links.mesh_primitives(index)
        counts = [_target_count(p.json) for p in primitives]
        for primitive, count in zip(primitives[1:], counts[1:], strict=True):
            if count != counts[0]:
                pointer = child(primitive.pointer, "targets") if count else primitive.pointer
                self.issues.add("MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT", pointer=pointer)
        weights = mesh.get("weights")
        if primitives and _numbers(weights) and len(weights) != counts[0]:
            self.issues.add(
                "MESH_INVALID_WEIGHTS_COUNT",
                pointer=child(child("/meshes", index), "weights"),
                weights=len(weights),
                targets=counts[0],
            )

    def _check_semantics(self, primitive: Primitive) -> None:
        attributes = primitive.json.get("attributes")
        if not isinstance(attributes, dict) or not attributes:
            return
        at, found = child(primitive.pointer, "attributes"), primitive.semantics
        for semantic in found.invalid:
            self.issues.add(
                "MESH_PRIMITIVE_INVALID_ATTRIBUTE", pointer=child(at, semantic), semantic=semantic
            )
        if not found.has_position:
            self.issues.add("MESH_PRIMITIVE_NO_POSITION", pointer=at)
        if found.has_tangent and not found.has_normal:
            self.issues.add("MESH_PRIMITIVE_TANGENT_WITHOUT_NORMAL", pointer=child(at, "TANGENT"))
        for name, expected, count in found.discontinuous:
            self.issues.add(
                "MESH_PRIMITIVE_INDEXED_SEMANTIC_CONTINUITY",
                pointer=at,
                semantic=name,
                expected=expected,
                found=count,
            )
        if found.joints_weights_mismatch is not None:
            joints, weights = found.joints_weights_mismatch
            self.issues.add(
                "MESH_PRIMITIVE_JOINTS_WEIGHTS_MISMATCH", pointer=at, joints=joints, weights=weights
            )

    def _check_attributes(self, primitive: Primitive) -> None:
        at = child(primitive.pointer, "attributes")
        count = None
        for semantic, accessor in primitive.attributes.items():
            pointer = child(at, semantic)
            self._check_vertex_accessor(accessor, semantic, pointer, morph=False)
            layout = self.links.layout(accessor)
            accessor_count = layout.count if layout is not None else None
            if count is None:
                count = accessor_count
            elif accessor_count != count:
                self.issues.add("MESH_PRIMITIVE_UNEQUAL_ACCESSOR_COUNT", pointer=pointer)

    def _check_vertex_accessor(
        self, index: int, semantic: str, pointer: str, *, morph: bool
    ) -> None:
        accessor = resolve(index, self.accessors)
        if accessor is None:
            return
        if semantic == "POSITION" and not self.bounds.complete(index):
            self.issues.add("MESH_PRIMITIVE_POSITION_ACCESSOR_WITHOUT_BOUNDS", pointer=pointer)
        found = accessor_format(accessor)
        valid = attribute_formats(semantic, self.extensions, morph=morph)
        if valid is not None and found not in valid:
            self.issues.add(
                "MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_INVALID_FORMAT",
                pointer=pointer,
                format=found,
                valid=describe(valid),
            )
        elif valid is None and not morph and found.component_type == 5125:
            self.issues.add("MESH_PRIMITIVE_ATTRIBUTES_ACCESSOR_UNSIGNED_INT", pointer=pointer)
        layout = self.links.layout(index)
        view = layout.buffer_view if layout is not None else None
        view_json = resolve(view, self.views)
        strided = view_json is not None and "byteStride" in view_json
        if layout is not None and (
            layout.byte_offset % 4
            or (layout.element_length % 4 and view_json is not None and not strided)
        ):
            self.issues.add("MESH_PRIMITIVE_ACCESSOR_UNALIGNED", pointer=pointer)
        if view is not None and view_json is not None and not strided:
            shared = self.view_accessors.setdefault(view, set())
            if index not in shared:
                shared.add(index)
                if len(shared) > 1:
                    self.issues.add("MESH_PRIMITIVE_ACCESSOR_WITHOUT_BYTESTRIDE", pointer=pointer)

    def _check_indices(self, primitive: Primitive) -> None:
        if primitive.indices is None:
            return
        pointer = child(primitive.pointer, "indices")
        accessor = resolve(primitive.indices, self.accessors)
        if accessor is None:
            return
        layout = self.links.layout(primitive.indices)
        view = resolve(layout.buffer_view, self.views) if layout else None
        if view is not None and "byteStride" in view:
            self.issues.add("MESH_PRIMITIVE_INDICES_ACCESSOR_WITH_BYTESTRIDE", pointer=pointer)
        found = accessor_format(accessor)
        if found not in INDICES:
            self.issues.add(
                "MESH_PRIMITIVE_INDICES_ACCESSOR_INVALID_FORMAT",
                pointer=pointer,
                format=found,
                valid=describe(INDICES),
            )

    def _check_mode(self, primitive: Primitive) -> None:
        count = primitive.vertex_count
        if primitive.indices is not None:
            layout = self.links.layout(primitive.indices)
            count = layout.count if layout is not None else None
        mode = primitive.mode
        if count is None or mode is None:
            return
        if (
            (mode == 1 and count % 2)
            or (mode in (2, 3) and count < 2)
            or (mode == 4 and count % 3)
            or (mode in (5, 6) and count < 3)
        ):
            self.issues.add(
                "MESH_PRIMITIVE_INCOMPATIBLE_MODE",
                pointer=primitive.pointer,
                count=count,
                mode=MODE_NAMES[mode],
            )

    def _check_material(self, primitive: Primitive) -> None:
        semantics = primitive.semantics
        needs = self.links.materials[primitive.material] if primitive.material is not None else None
        pointer = child(primitive.pointer, "material")
        if needs is not None:
            if not (semantics.has_normal and semantics.has_tangent) and needs.needs_tangent:
                code = (
                    "MESH_PRIMITIVE_GENERATED_TANGENT_SPACE"
                    if needs.can_provide_tangent
                    else "MESH_PRIMITIVE_NO_TANGENT_SPACE"
                )
                self.issues.add(code, pointer=pointer)
            for texture, texcoord in needs.texcoords.items():
                if texcoord != -1 and texcoord + 1 > semantics.texcoord_count:
                    self.issues.add(
                        "MESH_PRIMITIVE_TOO_FEW_TEXCOORDS",
                        pointer=pointer,
                        texture=texture,
                        texcoord=texcoord,
                    )
        if semantics.has_tangent and not any(
            needs.uses_tangent for needs in material_needs(self.links, primitive)
        ):
            self.issues.add(
                "UNUSED_MESH_TANGENT",
                pointer=child(child(primitive.pointer, "attributes"), "TANGENT"),
            )

    def _check_targets(self, primitive: Primitive) -> None:
        targets = primitive.json.get("targets")
        for number, target in enumerate(targets if isinstance(targets, list) else ()):
            at = child(child(primitive.pointer, "targets"), number)
            for semantic in target if isinstance(target, dict) else ():
                if not _valid_morph_semantic(semantic):
                    self.issues.add(
                        "MESH_PRIMITIVE_INVALID_ATTRIBUTE",
                        pointer=child(at, semantic),
                        semantic=semantic,
                    )
        for number, target in enumerate(primitive.targets or ()):
            at = child(child(primitive.pointer, "targets"), number)
            for semantic, accessor in target.items():
                pointer = child(at, semantic)
                base = primitive.attributes.get(semantic)
                if base is None:
                    self.issues.add(
                        "MESH_PRIMITIVE_MORPH_TARGET_NO_BASE_ACCESSOR",
                        pointer=pointer,
                        semantic=semantic,
                    )
                elif _count(self.links, base) != _count(self.links, accessor):
                    self.issues.add(
                        "MESH_PRIMITIVE_MORPH_TARGET_INVALID_ATTRIBUTE_COUNT", pointer=pointer
                    )
                self._check_vertex_accessor(accessor, semantic, pointer, morph=True)


def _valid_morph_semantic(semantic: str) -> bool:
    if semantic.startswith("_") or semantic in MORPH_SEMANTICS:
        return True
    parts = semantic.split("_")
    return (
        parts[0] in ("COLOR", "TEXCOORD")
        and len(parts) == 2
        and semantic_index(parts[1]) is not None
    )


def _count(links: DocumentLinks, accessor: int) -> int | None:
    layout = links.layout(accessor)
    return layout.count if layout is not None else None


def _target_count(primitive: dict) -> int:
    targets = primitive.get("targets")
    if isinstance(targets, list) and all(isinstance(t, dict) and t for t in targets):
        return len(targets)
    return 0


def _numbers(value: object) -> TypeGuard[list[float]]:
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    )


def check_meshes(asset: Asset, context: CheckContext) -> None:
    if asset.gltf is not None:
        _MeshChecker(asset.gltf.links, asset.gltf.declared_bounds, context.issues).check()


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-meshes",
            "Mesh primitives: attribute semantics and formats, indices, "
            "drawing modes, morph targets, texture coordinates and tangents.",
            check_meshes,
            CODES,
            GLTF_FORMATS,
        )
    ]
