"""Cameras: exactly one projection, read as ``type`` says, with sane clipping planes and sizes."""

from __future__ import annotations

import math

from assetcheck.asset import Asset
from assetcheck.checks import Check, CheckContext
from assetcheck.formats.gltf import GLTF_FORMATS
from assetcheck.formats.gltf.fields import child, extensions_used, in_range, is_number, preview
from assetcheck.formats.gltf.links import collection
from assetcheck.formats.gltf.schema import SchemaWalker
from assetcheck.formats.gltf.schema_tables import PROJECTIONS, ObjectSchema
from assetcheck.issues import FileIssues
from assetcheck.plugins.hookspecs import hookimpl

CODES = (
    "ONE_OF_MISMATCH",
    "UNDEFINED_PROPERTY",
    "TYPE_MISMATCH",
    "CAMERA_ZFAR_LEQUAL_ZNEAR",
    "CAMERA_XMAG_YMAG_ZERO",
    "CAMERA_XMAG_YMAG_NEGATIVE",
    "CAMERA_YFOV_GEQUAL_PI",
)


def number(schema: ObjectSchema, projection: dict, key: str) -> float:
    """A projection property as Khronos reads it: NaN when absent, malformed or out of range."""
    value = projection.get(key)
    if not is_number(value) or not in_range(schema.properties[key], value):
        return math.nan
    return float(value)


def _check_camera(camera: dict, at: str, walker: SchemaWalker, issues: FileIssues) -> None:
    if "orthographic" in camera and "perspective" in camera:
        issues.add("ONE_OF_MISMATCH", pointer=at, names="orthographic, perspective")
    kind = camera.get("type")
    if kind not in PROJECTIONS:
        return
    projection, pointer = camera.get(kind), child(at, kind)
    if projection is None:
        if kind in camera:
            issues.add("TYPE_MISMATCH", pointer=pointer, value="null", expected="an object")
        issues.add("UNDEFINED_PROPERTY", pointer=at, name=kind)
        return
    if not isinstance(projection, dict):
        issues.add(
            "TYPE_MISMATCH", pointer=pointer, value=preview(projection), expected="an object"
        )
        return
    schema = PROJECTIONS[kind]
    walker.check_object(schema, projection, pointer)
    zfar, znear = number(schema, projection, "zfar"), number(schema, projection, "znear")
    if zfar <= znear:
        issues.add("CAMERA_ZFAR_LEQUAL_ZNEAR", pointer=pointer)
    if kind == "perspective":
        if number(schema, projection, "yfov") >= math.pi:
            issues.add("CAMERA_YFOV_GEQUAL_PI", pointer=pointer)
        return
    for key in ("xmag", "ymag"):
        size = number(schema, projection, key)
        if size == 0:
            issues.add("CAMERA_XMAG_YMAG_ZERO", pointer=child(pointer, key))
        elif size < 0:
            issues.add("CAMERA_XMAG_YMAG_NEGATIVE", pointer=child(pointer, key))


def check_cameras(asset: Asset, context: CheckContext) -> None:
    if asset.document is None:
        return
    walker = SchemaWalker(context.issues, extensions_used(asset.document))
    for index, camera in enumerate(collection(asset.document, "cameras")):
        if camera is not None:
            _check_camera(camera, child("/cameras", index), walker, context.issues)


@hookimpl
def register_checks() -> list[Check]:
    return [
        Check(
            "gltf-cameras",
            "Camera projections: one per camera, clipping planes in "
            "order, non-zero sizes, field of view under pi.",
            check_cameras,
            CODES,
            GLTF_FORMATS,
        )
    ]
