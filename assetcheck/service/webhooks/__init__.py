"""Webhook deliveries: the database-free building blocks the outbox is made of.

- :mod:`~assetcheck.service.webhooks.payload` builds the event body, serialised once.
- :mod:`~assetcheck.service.webhooks.signing` issues secrets and signs a body for one attempt.
- :mod:`~assetcheck.service.webhooks.urls` is the address guard (SSRF) applied at submit and
  connect time.
- :mod:`~assetcheck.service.webhooks.delivery` makes one attempt: a POST to the vetted address.
- :mod:`~assetcheck.service.webhooks.schedule` says when the next attempt is due, or that none is.
"""
