"""The HTTP service: the ``/api/v1`` handlers, authentication, uploads and rate limits."""
