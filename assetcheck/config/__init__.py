"""The configuration: ``loading`` finds and merges the defaults (``defaults``), the file and the
``ASSETCHECK_*`` variables; ``settings.Config`` holds the result as one frozen, typed section per
table, each read and checked once by its module (``server``, ``storage``, ``workers``,
``webhooks``, ``accounts``, ``plugins``, ``validation``) with the readers of ``values``, whose
:class:`~assetcheck.config.values.ConfigError` names an unusable key. It imports nothing of the
service layer; the service takes the sections it needs (``docs/operations.md``,
Configuration)."""
