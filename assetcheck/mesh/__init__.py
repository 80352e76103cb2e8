"""Measuring triangle meshes of any format: faults, how triangles meet, and what their UVs do.

The checks, the previews and the viewer read meshes through these modules; none imports a check."""
