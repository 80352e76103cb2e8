"""The jinja2 environment of the dashboard's pages: autoescaped, strict about missing names."""

from __future__ import annotations

from datetime import datetime

import jinja2

from assetcheck.reports import costs, group_headline, group_title, headline
from assetcheck.reports.costs import format_size
from assetcheck.service.dashboard import WEB_ROOT, job_page

TEMPLATES = WEB_ROOT / "templates"


def make_environment() -> jinja2.Environment:
    """Templates from ``web/templates``; every value is HTML-escaped unless marked safe."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.filters.update(
        utc=format_utc, size=format_size, plan_title=plan_title, sentence=sentence
    )
    environment.globals.update(
        budget_bars=job_page.budget_bars,
        file_costs=costs.file_costs,
        estimates_note=costs.ESTIMATES_NOTE,
        saving_text=costs.saving_text,
        saving_title=costs.saving_title,
        texture_shares=costs.texture_shares,
        location=job_page.location,
        group_headline=group_headline,
        group_title=group_title,
        headline=headline,
    )
    return environment


def format_utc(moment: datetime | None) -> str:
    """A stored (naive UTC) timestamp as people read it: ``2025-01-31 12:00 UTC``."""
    return "never" if moment is None else moment.strftime("%Y-%m-%d %H:%M UTC")


def plan_title(plan: str) -> str:
    return plan.replace("_", " ").title()


def sentence(text: str) -> str:
    """A message as a sentence: capital first letter, full stop at the end."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")
