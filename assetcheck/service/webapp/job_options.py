"""The ``options`` part of an upload: a JSON object with ``engine``, ``webhook_url``,
``dimensions`` and ``baseline_job``."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any
from urllib.parse import urlsplit

from assetcheck.asset.dimensions import DimensionsError, ProductDimensions
from assetcheck.service.webapp.errors import RequestError
from assetcheck.service.webapp.json_input import JsonInputError, parse_json
from assetcheck.service.webhooks.settings import has_webhooks
from assetcheck.service.webhooks.urls import WebhookUrlError, check_webhook_url

DEFAULT_ENGINE = "generic"
KNOWN_OPTIONS = ("engine", "webhook_url", "dimensions", "baseline_job")
JOB_ID_MAX_LENGTH = 64  # the length of the job table's id column
WEBHOOK_URL_MAX_LENGTH = 2048


def parse_job_options(raw: bytes | None, engines: Collection[str]) -> dict[str, Any]:
    """The job's options, with ``engine`` always set; raises 400 INVALID_OPTIONS,
    UNKNOWN_ENGINE, INVALID_WEBHOOK_URL or INVALID_DIMENSIONS.

    ``baseline_job`` is only checked to be a job id's string here; whether the account has
    that job, completed, is for :func:`assetcheck.service.webapp.baselines.check_baseline` to
    say. A null ``baseline_job`` is as if it were not given.

    ``webhook_url`` is only checked to be an absolute http(s) URL here; where it may point
    is for :func:`check_webhook_option` to say. A null ``webhook_url`` is as if it were not
    given: the account's default URL applies (as ``null`` removes a URL in the settings).
    """
    options = _decode(raw)
    unknown = sorted(set(options) - set(KNOWN_OPTIONS))
    if unknown:
        raise _invalid(
            f"Unknown option {', '.join(unknown)}: the options are {', '.join(KNOWN_OPTIONS)}."
        )
    engine = options.get("engine", DEFAULT_ENGINE)
    if not isinstance(engine, str) or engine not in engines:
        raise RequestError(
            400,
            "UNKNOWN_ENGINE",
            f"Unknown engine {engine!r}: choose one of {', '.join(sorted(engines))}.",
        )
    parsed: dict[str, Any] = {"engine": engine}
    if options.get("webhook_url") is not None:
        parsed["webhook_url"] = _webhook_url(options["webhook_url"])
    if options.get("dimensions") is not None:
        parsed["dimensions"] = _dimensions(options["dimensions"])
    if options.get("baseline_job") is not None:
        parsed["baseline_job"] = _baseline_job(options["baseline_job"])
    return parsed


def check_webhook_option(
    options: Mapping[str, Any], plan: str, allowed_cidrs: Iterable[str]
) -> None:
    """Refuse a ``webhook_url`` the account may not use: 403 PLAN_REQUIRED on a plan without
    webhooks, 400 INVALID_WEBHOOK_URL when the address guard refuses it. It resolves the
    URL's host, so it blocks: run it off the event loop."""
    url = options.get("webhook_url")
    if url is None:
        return
    if not has_webhooks(plan):
        raise RequestError(
            403,
            "PLAN_REQUIRED",
            f"The {plan} plan has no webhooks: webhook_url "
            "needs the starter, pro or enterprise plan.",
        )
    try:
        check_webhook_url(url, allowed_cidrs)
    except WebhookUrlError as refusal:
        message = str(refusal)
        raise RequestError(400, refusal.code, f"{message[:1].upper()}{message[1:]}.") from None


def _decode(raw: bytes | None) -> dict[str, Any]:
    if raw is None or not raw.strip():
        return {}
    try:
        options = parse_json(raw, "The options part")
    except JsonInputError as error:
        raise _invalid(str(error)) from None
    if not isinstance(options, dict):
        raise _invalid("The options part must be a JSON object.")
    return options


def _webhook_url(value: object) -> str:
    if isinstance(value, str) and len(value) <= WEBHOOK_URL_MAX_LENGTH and _is_http_url(value):
        return value
    raise RequestError(
        400,
        "INVALID_WEBHOOK_URL",
        "webhook_url must be an absolute http:// or "
        f"https:// URL of at most {WEBHOOK_URL_MAX_LENGTH} characters.",
    )


def _dimensions(value: object) -> dict[str, float]:
    """The product's dimensions as stored with the job (metres by side), validated."""
    try:
        return ProductDimensions.from_json(value).to_json()
    except DimensionsError as error:
        message = str(error)
        raise RequestError(
            400, "INVALID_DIMENSIONS", f"{message[:1].upper()}{message[1:]}."
        ) from None


def _baseline_job(value: object) -> str:
    if isinstance(value, str) and 0 < len(value) <= JOB_ID_MAX_LENGTH:
        return value
    raise _invalid(
        f"baseline_job must be the id of one of your jobs (a string of 1 to {JOB_ID_MAX_LENGTH} "
        "characters, the job_id an upload answered)."
    )


def _is_http_url(value: str) -> bool:
    try:
        parts = urlsplit(value)
        parts.port  # noqa: B018 (raises ValueError for a port out of range)
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.hostname)


def _invalid(message: str) -> RequestError:
    return RequestError(400, "INVALID_OPTIONS", message)
