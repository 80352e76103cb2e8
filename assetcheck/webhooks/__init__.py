"""Webhook deliveries: the database-free building blocks the outbox is made of.

- :mod:`~assetcheck.webhooks.payload` builds the event body, serialised once.
- :mod:`~assetcheck.webhooks.signing` issues secrets and signs a body for one attempt.
- :mod:`~assetcheck.webhooks.urls` is the address guard (SSRF) applied at submit and connect time.
- :mod:`~assetcheck.webhooks.delivery` makes one attempt: a POST to the vetted address.
- :mod:`~assetcheck.webhooks.schedule` says when the next attempt is due, or that none is.
"""
