"""Dates as a policy writes them."""

from __future__ import annotations

import datetime as dt


def as_date(value: object) -> dt.date | None:
    """Return a policy date (a TOML date, or an ISO "YYYY-MM-DD" string) as a date, else None."""
    if isinstance(value, dt.datetime):
        return None
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            return None
    return None
