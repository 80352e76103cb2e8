"""ZIP uploads: our own parse of the archive layout, the rules about its entries, bounded
inflation, the reader that expands it into model files, and the issue codes."""
