"""The built-in value of every key: what applies when neither the file nor the environment sets
it. ``config.example.toml`` shows each with its meaning (a test keeps the two equal), and every
table has a typed section whose fields are exactly these keys (``config.settings``)."""

from __future__ import annotations

from typing import Any

DEFAULTS: dict[str, Any] = {
    "server": {
        "host": "127.0.0.1",
        "port": 8080,
        "secret_key": "",
        "max_body_kb": 1024,
        "header_timeout": 20,
        "body_timeout": 60,
        "idle_timeout": 30,
        "upload_timeout": 3600,
        "secure_cookies": False,
        "trust_forwarded_headers": False,
    },
    "storage": {
        "data_dir": "./data",
        "backend": "local",
        "bucket": "",
        "prefix": "",
        "endpoint_url": "",
        "region": "",
        "max_derived_ratio": 16,
        "derived_allowance_mb": 8,
    },
    "database": {"url": ""},
    "workers": {
        "processes": 2,
        "job_timeout": 300,
        "memory_limit_mb": 2048,
        "lease_seconds": 60,
        "shutdown_grace": 30,
    },
    "webhooks": {
        "retry_delays": [0, 60, 300, 1800, 7200],
        "timeout": 10,
        "allowed_cidrs": [],
        "poll_interval": 1,
        "keep_deliveries_days": 30,
        "max_sending_per_account": 2,
        "max_pending_per_account": 100,
    },
    "plans": {
        "free": {
            "max_upload_mb": 50,
            "requests_per_minute": 30,
            "max_processing_jobs": 1,
            "max_queued_jobs": 10,
            "retention_days": 0,
            "max_storage_mb": 0,
            "page_renders_per_minute": 20,
        },
        "starter": {
            "max_upload_mb": 100,
            "requests_per_minute": 60,
            "max_processing_jobs": 2,
            "max_queued_jobs": 50,
            "retention_days": 0,
            "max_storage_mb": 0,
            "page_renders_per_minute": 30,
        },
        "pro": {
            "max_upload_mb": 500,
            "requests_per_minute": 300,
            "max_processing_jobs": 4,
            "max_queued_jobs": 200,
            "retention_days": 0,
            "max_storage_mb": 0,
            "page_renders_per_minute": 60,
        },
        "enterprise": {
            "max_upload_mb": 2048,
            "requests_per_minute": 1200,
            "max_processing_jobs": 8,
            "max_queued_jobs": 1000,
            "retention_days": 0,
            "max_storage_mb": 0,
            "page_renders_per_minute": 120,
        },
    },
    "accounts": {"max_active_keys": 20, "login_first_delay": 1, "login_max_delay": 900},
    "plugins": {"dir": "", "disabled": [], "crash": "warning"},
    "validation": {
        "max_uncompressed_mb": 1024,
        "max_compression_ratio": 100,
        "max_archive_entries": 10_000,
        "max_archive_depth": 2,
        "max_issues": 1000,
        "max_issues_per_code": 100,
        "max_report_mb": 8,
    },
    "engines": {},
    "metrics": {"enabled": False, "token": "", "host": "127.0.0.1", "port": 9464},
    "logging": {"format": "text"},
}
