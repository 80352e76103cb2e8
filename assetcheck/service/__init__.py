"""The service layer around the validation core: the database, jobs and workers, webhooks,
accounts, logs and metrics, and the HTTP layer (``webapp``) with the API and the dashboard.

The validation core never imports this package (``docs/architecture.md``)."""
