"""Issue types of glTF and GLB, one module per area, with Khronos glTF-Validator's codes."""
