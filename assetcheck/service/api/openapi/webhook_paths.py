"""The operations on an account's webhooks: its deliveries, and its URL and signing secret."""

from __future__ import annotations

from assetcheck.service.api.openapi.fragments import (
    error,
    json_content,
    link,
    object_schema,
    page_parameters,
)
from assetcheck.service.api.openapi.responses import authenticated


def webhook_paths() -> dict:
    return {
        "/api/v1/webhooks/deliveries": {"get": _deliveries()},
        "/api/v1/webhooks/deliveries/{deliveryId}": {"get": _delivery()},
        "/api/v1/webhooks/deliveries/{deliveryId}/redeliver": {"post": _redeliver()},
        "/api/v1/webhooks/settings": {"get": _settings(), "put": _set_settings()},
        "/api/v1/webhooks/settings/rotate-secret": {"post": _rotate_secret()},
    }


def _deliveries() -> dict:
    return {
        "operationId": "listWebhookDeliveries",
        "summary": "The account's webhook deliveries with their attempts, newest first",
        "parameters": page_parameters(),
        "responses": {
            "200": {
                "description": "A page of deliveries",
                "content": json_content("DeliveryList"),
                "links": {
                    "GetWebhookDelivery": link(
                        "getWebhookDelivery", deliveryId="$response.body#/deliveries/0/delivery_id"
                    ),
                    "RedeliverWebhook": link(
                        "redeliverWebhook", deliveryId="$response.body#/deliveries/0/delivery_id"
                    ),
                },
            },
            "400": error("INVALID_PARAMETER"),
            **authenticated(),
        },
    }


def _delivery() -> dict:
    return {
        "operationId": "getWebhookDelivery",
        "summary": "One webhook delivery with its attempts",
        "parameters": [_delivery_id_parameter()],
        "responses": {
            "200": {"description": "The delivery", "content": json_content("Delivery")},
            "404": error("DELIVERY_NOT_FOUND"),
            **authenticated(),
        },
    }


def _redeliver() -> dict:
    return {
        "operationId": "redeliverWebhook",
        "summary": "Send a delivered or abandoned delivery again: a new cycle of attempts",
        "parameters": [_delivery_id_parameter()],
        "responses": {
            "202": {
                "description": "Queued again",
                "content": json_content("Delivery"),
                "links": {
                    "GetWebhookDelivery": link(
                        "getWebhookDelivery", deliveryId="$response.body#/delivery_id"
                    )
                },
            },
            "404": error("DELIVERY_NOT_FOUND"),
            "409": error("DELIVERY_IN_PROGRESS: its attempts are still running"),
            **authenticated(),
            "429": error(
                "RATE_LIMITED, or TOO_MANY_PENDING_DELIVERIES: the account "
                "has [webhooks] max_pending_per_account deliveries waiting "
                "to be sent"
            ),
        },
    }


def _settings() -> dict:
    return {
        "operationId": "getWebhookSettings",
        "summary": "The default webhook URL and the signing secret (made on first use)",
        "responses": {
            "200": {"description": "The settings", "content": json_content("WebhookSettings")},
            **authenticated(),
        },
    }


def _set_settings() -> dict:
    return {
        "operationId": "setWebhookSettings",
        "summary": "Set the default webhook URL (checked by the address guard), or remove it",
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "schema": object_schema(
                        ["webhook_url"],
                        {
                            "webhook_url": {
                                "type": ["string", "null"],
                                "format": "uri",
                                "pattern": "^https?://[^/?#]+",
                                "maxLength": 2048,
                                "description": "null removes the URL",
                            }
                        },
                    )
                }
            },
        },
        "responses": {
            "200": {"description": "The settings", "content": json_content("WebhookSettings")},
            "400": error("INVALID_BODY or INVALID_WEBHOOK_URL"),
            **authenticated(),
        },
    }


def _rotate_secret() -> dict:
    return {
        "operationId": "rotateWebhookSecret",
        "summary": "Replace the signing secret; the previous one also signs for 24 hours",
        "responses": {
            "200": {
                "description": "The settings with the new secret",
                "content": json_content("WebhookSettings"),
            },
            **authenticated(),
        },
    }


def _delivery_id_parameter() -> dict:
    return {"name": "deliveryId", "in": "path", "required": True, "schema": {"type": "string"}}
