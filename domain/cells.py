"""The grid cell ``{ticker, FY, FQ}``: what a slice of a question and a page of a filing are
placed in. A plain value every package imports; nothing else defines one."""

from __future__ import annotations

from pydantic import BaseModel, Field


class SliceRef(BaseModel):
    """One ``{ticker, FY, FQ}`` cell of the retrieval grid."""

    model_config = {"frozen": True}

    ticker: str = Field(min_length=1)
    fy: int = Field(ge=1900, le=2100)
    fq: int | None = Field(default=None, ge=1, le=4)

    @property
    def label(self) -> str:
        """``KO FY2024 Q1``; the FY-level cell is Q4, shown as ``KO FY2024`` when fq is None."""
        return f"{self.ticker} FY{self.fy}" + (f" Q{self.fq}" if self.fq else "")
