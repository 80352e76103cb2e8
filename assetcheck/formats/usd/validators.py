"""Pixar's validators (``pxr.UsdValidation``, in ``usd-core`` since 24.11) as AssetCheck codes.

Every validator the registry of ``usd-core`` holds is named here once: either mapped to the
code its errors are reported as (severity and fix are the code's, the message is Pixar's), or
listed in :data:`COVERED` with the AssetCheck rule that judges the same thing on the package
itself, before USD reads it (so nothing is reported twice, the rule holds where USD cannot open
the package at all, and nothing outside the package is opened: Pixar's package and dependency
validators open every dependency, those that leave the package too). A validator a newer
``usd-core`` adds is run and reported as ``USD_SCHEMA_RULE`` until it is named here;
``tests/formats/usd/test_usd_validators.py`` fails then, so that it is named. ``docs/usd.md``
lists the table.
"""

from __future__ import annotations

import posixpath
from typing import Any

from assetcheck.issues.findings import Finding

#: Validator name -> the code its errors are reported as.
CODES: dict[str, str] = {
    "usdValidation:StageMetadataChecker": "USD_MISSING_DEFAULT_PRIM",
    "usdGeomValidators:StageMetadataChecker": "USD_MISSING_STAGE_METADATA",
    "usdValidation:CompositionErrorTest": "USD_COMPOSITION_ERROR",
    "usdValidation:AttributeTypeMismatch": "USD_ATTRIBUTE_TYPE_MISMATCH",
    "usdShadeValidators:ShaderSdrCompliance": "USD_ATTRIBUTE_TYPE_MISMATCH",
    "usdShadeValidators:MaterialBindingApiAppliedValidator": "USD_MATERIAL_BINDING",
    "usdShadeValidators:MaterialBindingRelationships": "USD_MATERIAL_BINDING",
    "usdShadeValidators:MaterialBindingCollectionValidator": "USD_MATERIAL_BINDING",
    "usdShadeValidators:SubsetMaterialBindFamilyName": "USD_MATERIAL_BINDING",
    "usdShadeValidators:SubsetsMaterialBindFamily": "USD_MATERIAL_BINDING",
    "usdSkelValidators:SkelBindingApiValidator": "USD_SKEL_BINDING",
    "usdSkelValidators:SkelBindingApiAppliedValidator": "USD_SKEL_BINDING",
    "usdShadeValidators:NormalMapTextureValidator": "USD_NORMAL_MAP",
    "usdGeomValidators:EncapsulationChecker": "USD_ENCAPSULATION",
    "usdShadeValidators:EncapsulationMaterialValidator": "USD_ENCAPSULATION",
    "usdShadeValidators:EncapsulationRulesValidator": "USD_ENCAPSULATION",
    "usdLuxValidators:EncapsulationRulesValidator": "USD_ENCAPSULATION",
    "usdGeomValidators:SubsetParentIsImageable": "USD_SCHEMA_RULE",
    "usdGeomValidators:SubsetFamilies": "USD_SCHEMA_RULE",
    "usdPhysicsValidators:ArticulationChecker": "USD_SCHEMA_RULE",
    "usdPhysicsValidators:RigidBodyChecker": "USD_SCHEMA_RULE",
    "usdPhysicsValidators:PhysicsJointChecker": "USD_SCHEMA_RULE",
    "usdPhysicsValidators:ColliderChecker": "USD_SCHEMA_RULE",
    "usdMediaValidators:ShadowedOrDuplicateAuthorship": "USD_SCHEMA_RULE",
    "usdMediaValidators:AuthorshipInputsPaired": "USD_SCHEMA_RULE",
}

#: Validators not run, with the AssetCheck rule that covers them (``docs/usd.md``).
COVERED: dict[str, str] = {
    "usdUtilsValidators:RootPackageValidator": "USDZ_COMPRESSED_MEMBER, USDZ_UNALIGNED_MEMBER",
    "usdUtilsValidators:UsdzPackageValidator": "USDZ_COMPRESSED_MEMBER, USDZ_UNALIGNED_MEMBER",
    "usdUtilsValidators:FileExtensionValidator": "USDZ_FILE_TYPE_NOT_ALLOWED",
    "usdUtilsValidators:PackageEncapsulationValidator": "USD_EXTERNAL_PATH, USD_PATH_TRAVERSAL",
    # It opens every dependency to see whether it resolves, those leaving the package too.
    "usdUtilsValidators:MissingReferenceValidator": "USD_MISSING_DEPENDENCY",
}

#: The code of a validator this table does not name yet.
UNNAMED = "USD_SCHEMA_RULE"


def code_for(validator: str) -> str:
    """The code ``validator``'s errors are reported as."""
    return CODES.get(validator, UNNAMED)


def run_validators(
    stage: Any, reported: set[str], private: tuple[str, str], name: str
) -> list[Finding]:
    """Pixar's validators' errors on ``stage`` (all but the :data:`COVERED` ones), one finding
    per validator and error kind: its first message, and how many more there are. Errors about
    a path reported otherwise (``reported``: leaving the package, or looked up in the upload)
    are left out; messages name
    the file by its ``name``, never by the ``private`` folder and file name it was copied to.
    Runs in the reader's child, with ``pxr`` loaded."""
    from pxr import UsdValidation

    registry = UsdValidation.ValidationRegistry()
    names = [
        m.name
        for m in registry.GetAllValidatorMetadata()
        if m.name not in COVERED and not m.isSuite
    ]
    validators = registry.GetOrLoadValidatorsByName(names)
    folder, copy = private
    named = _asset_references(reported)
    grouped: dict[tuple[str, str], list[tuple[Any, str]]] = {}
    for error in UsdValidation.ValidationContext(validators).Validate(stage):
        detail = " ".join(error.GetMessage().replace(folder, "").replace(copy, name).split())
        if any(reference in detail for reference in named):
            continue
        validator = error.GetValidator()
        key = (validator.GetMetadata().name if validator else "", error.GetName())
        grouped.setdefault(key, []).append((error, detail))
    findings = []
    for (validator, _), errors in grouped.items():
        first, detail = errors[0]
        if len(errors) > 1:
            detail += f" ({len(errors) - 1:,} more like it)"
        findings.append(Finding(code_for(validator), site=_site(first), detail=detail))
    return findings


def _asset_references(paths: set[str]) -> set[str]:
    """How USD's messages write an asset path of ``paths``: ``@path@`` as written or
    normalised, and at the end of an anchored one (``@pkg.usdz[path]@``, ``@folder/path@``)."""
    written = paths | {posixpath.normpath(path) for path in paths}
    return {f"{lead}{path}@" for path in written for lead in ("@", "/")} | {
        f"[{path}]@" for path in written
    }


def _site(error: Any) -> str:
    """Where an error is: its first prim's path, else its layer."""
    for site in error.GetSites():
        if site.IsPrim():
            return str(site.GetPrim().GetPath())
    return "the root layer"
