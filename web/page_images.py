"""Page images from the PDFs a store was built from, and from nowhere else.

A request names a page by its uid only. The image comes from a PDF found under the folders
``research serve --pdfs`` was given, whose FinanceBench-style name maps to the page's
document, and only when that PDF page's text is the text the store holds (whitespace
aside): the image then shows exactly the page that was cited. No request can name a path.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import OrderedDict
from collections.abc import Iterable
from pathlib import Path

from retrieval.companies import load_companies
from retrieval.ingest.filenames import parse_doc_name
from retrieval.pages import Page

logger = logging.getLogger(__name__)
ZOOM = 1.5  # 108 dpi: the figures of a statement page stay legible
CACHE_PAGES = 64
_SPACE_RE = re.compile(r"\s+")


def _same_text(a: str, b: str) -> bool:
    return _SPACE_RE.sub(" ", a).strip() == _SPACE_RE.sub(" ", b).strip()


class PageImages:
    """PNG renders of stored pages whose PDFs are under ``folders``; cached, thread-safe."""

    def __init__(self, folders: Iterable[Path]) -> None:
        self.folders = tuple(Path(f) for f in folders)
        self._index: dict[str, Path] | None = None
        self._cache: OrderedDict[str, bytes | None] = OrderedDict()
        self._lock = threading.Lock()

    def _pdf_index(self) -> dict[str, Path]:
        """doc_name -> PDF path, for every readable name under the folders (built once)."""
        if self._index is None:
            companies = load_companies(None)
            index: dict[str, Path] = {}
            for folder in self.folders:
                for path in sorted(folder.rglob("*.pdf")) if folder.is_dir() else []:
                    try:
                        index.setdefault(parse_doc_name(path.name, companies).doc_name, path)
                    except ValueError:
                        continue
            self._index = index
        return self._index

    def pdf_for(self, page: Page) -> Path | None:
        return self._pdf_index().get(page.doc_name) if self.folders else None

    def png(self, page: Page) -> bytes | None:
        """The page as PNG, or None: no PDF for its document, or the PDF's page differs."""
        path = self.pdf_for(page)
        if path is None:
            return None
        key = f"{page.doc_name}#{page.page_index}"
        with self._lock:
            if key in self._cache:
                self._cache.move_to_end(key)
                return self._cache[key]
            image = self._render(path, page)
            self._cache[key] = image
            if len(self._cache) > CACHE_PAGES:
                self._cache.popitem(last=False)
            return image

    @staticmethod
    def _render(path: Path, page: Page) -> bytes | None:
        import pymupdf

        try:
            with pymupdf.open(path) as pdf:
                if pdf.needs_pass or page.page_index >= pdf.page_count:
                    return None
                pdf_page = pdf[page.page_index]
                if not _same_text(pdf_page.get_text(), page.text):
                    return None
                return pdf_page.get_pixmap(matrix=pymupdf.Matrix(ZOOM, ZOOM)).tobytes("png")
        except Exception:  # a damaged PDF costs the image, never the page
            logger.warning("could not render %s page %d", path, page.page_index, exc_info=True)
            return None

    def available(self, page: Page) -> bool:
        """Whether :meth:`png` would return an image (renders it once to find out)."""
        return self.png(page) is not None
