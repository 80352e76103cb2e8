"""FBX: the bounded node walk of the security scan, the scene read by ufbx in a child process,
the geometry decoded by our own reader, the FBX part of the asset model and its issue codes."""

#: What a binary FBX file starts with.
FBX_BINARY_MAGIC = b"Kaydara FBX Binary  \x00"
