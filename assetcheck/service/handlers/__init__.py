"""Request handlers, one module per area; each ends with its ``default_handlers`` routes."""
