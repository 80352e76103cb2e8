"""FBX: one bounded walk of the file (the security scan, and the nodes the geometry needs), the
scene read by ufbx in a child process, the geometry decoded from the walk's nodes, the FBX part
of the asset model and its issue codes."""

#: What a binary FBX file starts with.
FBX_BINARY_MAGIC = b"Kaydara FBX Binary  \x00"
