"""Figures by calendar month (UTC), for the charts: the last few months, oldest first, none left out."""

from collections.abc import Mapping
from datetime import datetime


def month_label(moment: datetime) -> str:
    return f"{moment.year:04d}-{moment.month:02d}"


def last_months(now: datetime, count: int) -> list[str]:
    """`count` month labels ending with the month of `now`, oldest first."""
    year, month = now.year, now.month
    labels = []
    for _ in range(count):
        labels.append(f"{year:04d}-{month:02d}")
        year, month = (year - 1, 12) if month == 1 else (year, month - 1)
    return labels[::-1]


def series(labels: list[str], **figures: Mapping[str, int]) -> list[dict[str, object]]:
    """One row per month with every figure (in cents), 0 where a month has none."""
    return [{"month": label, **{name: values.get(label, 0) for name, values in figures.items()}} for label in labels]
