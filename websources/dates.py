"""Dates as the web writes them, made timezone-aware UTC datetimes.

Pages, feeds and search engines give dates as ``2024-05-01``, RFC 822 strings, ISO 8601
with or without a zone, or ``time.struct_time``; a citation and a ``--since`` filter need
one comparable form. A date without a zone is taken as UTC.
"""

from __future__ import annotations

import calendar
import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime


def utc_now() -> datetime:
    """Now, in UTC (the retrieval time of a source)."""
    return datetime.now(UTC).replace(microsecond=0)


def as_utc(value: object) -> datetime | None:
    """``value`` (a string, datetime or struct_time) as an aware UTC datetime; None when it
    is missing or unreadable, never an error: a date is a nicety of a citation."""
    if value is None or value == "":
        return None
    if isinstance(value, time.struct_time):
        return datetime.fromtimestamp(calendar.timegm(value), UTC)
    if isinstance(value, datetime):
        moment = value
    else:
        text = str(value).strip()
        try:
            moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            try:
                moment = parsedate_to_datetime(text)
            except (TypeError, ValueError, IndexError):
                return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)
