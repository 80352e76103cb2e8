"""The OpenAPI 3.1 document of ``/api/v1``, served at ``GET /api/v1/openapi.json``.

Built at start-up from what is installed, so the ``engine`` and ``format`` enumerations list
the engine profiles and report formats the plugins of this server provide. It is exact: every
status an operation can answer is declared (those any request can get are added to each), an
upload's ``file`` part says which content the service takes, and links lead from an upload to
its job, report and badge, so a stateful test reaches real ids. A test runs schemathesis with
all its checks and phases, stateful included, against a live server with this document
(``tests/service/api/test_openapi.py``).

One module per part: ``document`` assembles the document; ``job_paths``, ``report_paths``,
``webhook_paths`` and ``service_paths`` describe the operations; ``schemas`` the component
schemas; ``responses`` the answers many operations share; ``fragments`` the small pieces they
are all made of.
"""
