"""Measuring triangle meshes of any format: the mesh prepared once (positions hashed, usable
triangles, welded vertices), its faults, how its triangles meet, and what its UVs do.

The checks, the previews and the viewer read meshes through these modules; none imports a check."""
