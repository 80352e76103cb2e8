"""The ``/api/v1`` service: its handlers, key authentication and OpenAPI document."""
