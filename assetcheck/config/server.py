"""``[server]``, ``[metrics]`` and ``[logging]``: where a service process listens, what a
connection may send it, and what it shows operators (``docs/operations.md``)."""

from __future__ import annotations

from typing import NamedTuple

from assetcheck.config.values import Table

#: Shortest ``[metrics] token``: a bearer token is a password, not a label.
MIN_METRICS_TOKEN = 16
#: ``[logging] format`` values (``service.observability.log_format``).
LOG_FORMATS = ("text", "json")


class ServerSettings(NamedTuple):
    """``[server]``: the HTTP server's address, its secret, its cookies and proxy headers, and
    its limits on what a connection sends before it is accepted (``service.webapp.limits``).
    Times are seconds."""

    host: str
    port: int
    #: Empty: the one made under ``data_dir`` (``service.webapp.server_secret``).
    secret_key: str
    #: The largest request body outside uploads, in KiB.
    max_body_kb: int
    #: From a connection's opening, or the end of its previous answer, to a complete request
    #: head: half-sent heads and idle keep-alive connections are closed after it.
    header_timeout: float
    #: A whole request body outside uploads.
    body_timeout: float
    #: The longest a request body, an upload's included, may send nothing.
    idle_timeout: float
    #: A whole upload body.
    upload_timeout: float
    secure_cookies: bool
    trust_forwarded_headers: bool

    @classmethod
    def read(cls, table: Table) -> ServerSettings:
        return cls(
            host=table.text("host"),
            port=table.port("port"),
            secret_key=table.text("secret_key"),
            max_body_kb=table.whole("max_body_kb", 1, "must be a whole number of KiB over 0"),
            header_timeout=table.seconds("header_timeout"),
            body_timeout=table.seconds("body_timeout"),
            idle_timeout=table.seconds("idle_timeout"),
            upload_timeout=table.seconds("upload_timeout"),
            secure_cookies=table.flag("secure_cookies"),
            trust_forwarded_headers=table.flag("trust_forwarded_headers"),
        )

    @property
    def max_body_bytes(self) -> int:
        return self.max_body_kb << 10


class MetricsSettings(NamedTuple):
    """``[metrics]``: whether ``/metrics`` answers, the bearer token it asks for (empty: none),
    and where ``assetcheck worker`` serves it."""

    enabled: bool
    token: str
    host: str
    port: int

    @classmethod
    def read(cls, table: Table) -> MetricsSettings:
        return cls(
            enabled=table.flag("enabled"),
            token=_metrics_token(table),
            host=table.text("host"),
            port=table.port("port"),
        )


def _metrics_token(table: Table) -> str:
    requirement = f"must be empty or a string of at least {MIN_METRICS_TOKEN} characters"
    token = table.text("token", requirement)
    if 0 < len(token) < MIN_METRICS_TOKEN:
        table.refuse("token", requirement)
    return token


class LoggingSettings(NamedTuple):
    """``[logging]``: the format of every log line, one of :data:`LOG_FORMATS`."""

    format: str

    @classmethod
    def read(cls, table: Table) -> LoggingSettings:
        return cls(format=table.choice("format", LOG_FORMATS))
