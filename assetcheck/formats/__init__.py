"""Readers: each turns one model file of the upload into an Asset (one module per format)."""
