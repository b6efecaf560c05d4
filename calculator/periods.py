"""Fiscal periods and the period part of a reference (``revenue[FY-1]``).

A formula is written once and computed for any slice, so references are usually *relative*
to the period the calculation is for (``FY`` is that period, ``FY-1`` one fiscal year
earlier); a question that names years may also use *absolute* periods (``FY2018``,
``FY2023Q2``).
"""

from __future__ import annotations

from dataclasses import dataclass

from domain.periods import Period


@dataclass(frozen=True)
class PeriodRef:
    """Either an absolute period or an offset in fiscal years from the calculation's period."""

    absolute: Period | None = None
    offset: int = 0

    def resolve(self, base: Period) -> Period:
        """The period read: an absolute one as written, a relative one moved from ``base``.
        In a year-to-date calculation an absolute quarter is that quarter's year to date
        too: "revenue growth in the first half of fiscal 2024" is ``revenue[FY2024Q2] /
        revenue[FY2023Q2] - 1`` over the six months, where the quarters alone had been read
        and labelled year to date."""
        if self.absolute is None:
            return base.shifted(self.offset)
        if base.to_date and self.absolute.fq in (2, 3) and not self.absolute.to_date:
            return Period(self.absolute.fy, self.absolute.fq, to_date=True)
        return self.absolute

    def within(self, outer: PeriodRef) -> PeriodRef:
        """This reference seen from inside a metric referenced at ``outer``.

        ``operating_margin[FY-1]`` expands ``operating_income / revenue`` with every relative
        reference moved one year back; absolute references stay where they are.
        """
        if self.absolute is not None:
            return self
        if outer.absolute is not None:
            return PeriodRef(absolute=outer.absolute.shifted(self.offset))
        return PeriodRef(offset=self.offset + outer.offset)

    @property
    def text(self) -> str:
        """The bracket text: ``FY``, ``FY-1``, ``FY2018``."""
        if self.absolute is not None:
            return self.absolute.label
        if self.offset == 0:
            return "FY"
        return f"FY{self.offset:+d}"


CURRENT = PeriodRef()
