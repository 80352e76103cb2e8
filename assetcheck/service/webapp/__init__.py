"""The Tornado layer the API and the dashboard both build on: the application factory, the
base handlers, the error type, uploads, reports, and the ``serve`` process."""
