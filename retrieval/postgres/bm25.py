"""BM25 in PostgreSQL, scored as SQLite's FTS5 scores it (k1 = 1.2, b = 0.75).

PostgreSQL's own ``ts_rank``/``ts_rank_cd`` know no document frequencies (a common word
counts as much as a rare one), and ranking every page that holds "total" means reading
every one of their ``tsvector``s. So ingest keeps BM25 postings beside the pages: one row
per (document, lexeme) with the pages holding it, its count on each and each page's
length, made from the stored ``tsvector`` in the document's own transaction
(:data:`retrieval.postgres.schema.POSTINGS_SQL`). A search reads the rows of its terms —
a few hundred for a shared search, a handful inside one cell — and scores in numpy:

- IDF over the whole grid (as FTS5 does): a term's pages summed over its rows, cached per
  process with the corpus size and mean page length, refreshed every few minutes;
- a phrase term (``10-K`` is ``'10' <-> 'k'``) counts the pages holding all its lexemes,
  with the least of their counts: adjacency is not checked;
- page length: the token count stored at ingest (FTS5 counts tokens the same way).
"""

from __future__ import annotations

import math
import re
import threading
import time
from collections.abc import Sequence

import numpy as np
import psycopg

from retrieval.store import GridFilter, filter_clause

K1, B = 1.2, 0.75
STATS_TTL_S = 300.0
_TOKEN = re.compile(r"\w+")
_LEXEME = re.compile(r"'((?:[^']|'')*)'")


def token_count(text: str) -> int:
    """Tokens on a page, as FTS5's unicode61 tokenizer splits them (BM25's page length)."""
    return len(_TOKEN.findall(text))


def grid_clause(where: GridFilter, alias: str = "p") -> tuple[str, list]:
    """``AND``-joined equality tests for the filter's set coordinates, psycopg style."""
    return filter_clause(where, "%s", alias)


def lexemes_of(tsquery: str) -> tuple[str, ...]:
    """The lexemes of a ``phraseto_tsquery`` text (``'10' <-> 'k'`` -> ``('10', 'k')``)."""
    return tuple(m.replace("''", "'") for m in _LEXEME.findall(tsquery))


class TermStatistics:
    """Per-process cache of the corpus size, mean page length and term document counts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._lexemes: dict[str, tuple[str, ...]] = {}  # term -> lexemes (() for a stopword)
        self._df: dict[tuple[str, ...], int] = {}
        self._corpus: tuple[int, float] = (0, 1.0)
        self._read_at = -math.inf

    def invalidate(self) -> None:
        with self._lock:
            self._read_at = -math.inf

    def _fresh(self, conn: psycopg.Connection) -> None:
        if time.monotonic() - self._read_at < STATS_TTL_S:
            return
        pages, avg_len = conn.execute(
            "SELECT count(*), coalesce(avg(doc_len), 1) FROM wissen.pages"
        ).fetchone()
        self._corpus = (int(pages), max(float(avg_len), 1.0))
        self._df.clear()
        self._read_at = time.monotonic()

    def weigh(self, conn: psycopg.Connection, terms: Sequence[str]) -> tuple[list, float]:
        """``([(lexemes, idf), ...], mean page length)`` for the terms that index."""
        with self._lock:
            self._fresh(conn)
            unknown = [t for t in terms if t not in self._lexemes]
            if unknown:
                rows = conn.execute(
                    "SELECT t, phraseto_tsquery('english', t)::text FROM unnest(%s::text[]) t",
                    [unknown],
                ).fetchall()
                self._lexemes.update((t, lexemes_of(q)) for t, q in rows)
            phrases = list(dict.fromkeys(lx for t in terms if (lx := self._lexemes.get(t))))
            self._count(conn, [p for p in phrases if p not in self._df])
            pages, avg_len = self._corpus
            weighed = []
            for phrase in phrases:
                df = self._df[phrase]
                idf = math.log((pages - df + 0.5) / (df + 0.5)) if pages else 0.0
                weighed.append((phrase, idf if idf > 0 else 1e-6))
            return weighed, avg_len

    def _count(self, conn: psycopg.Connection, phrases: list[tuple[str, ...]]) -> None:
        """Pages holding each phrase, over the whole grid."""
        single = [p[0] for p in phrases if len(p) == 1]
        if single:
            rows = conn.execute(
                "SELECT lexeme, sum(length(page_ids) / 4) FROM wissen.postings "
                "WHERE lexeme = ANY(%s) GROUP BY lexeme",
                [single],
            ).fetchall()
            found = {lexeme: int(n) for lexeme, n in rows}
            self._df.update(((lx,), found.get(lx, 0)) for lx in single)
        for phrase in (p for p in phrases if len(p) > 1):
            query = " <-> ".join("'" + lx.replace("'", "''") + "'" for lx in phrase)
            (n,) = conn.execute(
                "SELECT count(*) FROM wissen.pages WHERE tsv @@ %s::tsquery", [query]
            ).fetchone()
            self._df[phrase] = int(n)


def _postings(conn: psycopg.Connection, lexemes: list[str], where: GridFilter) -> dict:
    """lexeme -> (page_ids, tfs, lens) arrays over the pages in ``where``."""
    clause, args = grid_clause(where, alias="o")
    rows = (
        conn.cursor(binary=True)
        .execute(
            "SELECT o.lexeme, o.page_ids, o.tfs, o.lens "
            f"FROM wissen.postings o WHERE o.lexeme = ANY(%s) AND {clause}",
            [lexemes, *args],
        )
        .fetchall()
    )
    grouped: dict[str, list] = {}
    for lexeme, *arrays in rows:
        grouped.setdefault(lexeme, []).append(arrays)
    return {
        lexeme: tuple(
            np.frombuffer(b"".join(part[i] for part in parts), dtype=">i4").astype(np.float64)
            for i in range(3)
        )
        for lexeme, parts in grouped.items()
    }


def _phrase_postings(phrase: tuple[str, ...], postings: dict):
    """(page_ids, tfs, lens) of the pages holding every lexeme of ``phrase``."""
    if any(lx not in postings for lx in phrase):
        return None
    ids, tfs, lens = postings[phrase[0]]
    for lexeme in phrase[1:]:
        other_ids, other_tfs, _ = postings[lexeme]
        common, mine, theirs = np.intersect1d(ids, other_ids, return_indices=True)
        ids, tfs, lens = common, np.minimum(tfs[mine], other_tfs[theirs]), lens[mine]
    return ids, tfs, lens


def bm25(
    conn: psycopg.Connection,
    stats: TermStatistics,
    terms: Sequence[str],
    where: GridFilter,
    k: int,
) -> list[tuple[int, float]]:
    """Best ``k`` (page_id, BM25 score) among pages in ``where``."""
    if not terms or k <= 0:
        return []
    weighed, avg_len = stats.weigh(conn, terms)
    if not weighed:
        return []
    postings = _postings(conn, sorted({lx for phrase, _ in weighed for lx in phrase}), where)
    ids, contributions = [], []
    for phrase, idf in weighed:
        found = _phrase_postings(phrase, postings)
        if found is None or not len(found[0]):
            continue
        page_ids, tfs, lens = found
        ids.append(page_ids)
        contributions.append(idf * tfs * (K1 + 1) / (tfs + K1 * (1 - B + B * lens / avg_len)))
    if not ids:
        return []
    pages, scores = _summed_by_page(
        np.concatenate(ids).astype(np.int64), np.concatenate(contributions)
    )
    if len(pages) > k:  # the k best, and every page tied with the k-th (sorted below)
        kth = -np.partition(-scores, k - 1)[k - 1]
        keep = scores >= kth
        pages, scores = pages[keep], scores[keep]
    order = np.lexsort((pages, -scores))[:k]
    return [(int(pages[i]), float(scores[i])) for i in order]


def _summed_by_page(page_ids: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(pages, summed weight of each): a shared search sums ~100k postings. Page ids are
    dense serials, so counting into an array as long as the largest id is linear; sorting
    them (``np.unique``) is kept for ids far sparser than the postings."""
    top = int(page_ids.max())
    if top > 4 * len(page_ids) + 1_000_000:
        pages, where_in = np.unique(page_ids, return_inverse=True)
        return pages, np.bincount(where_in, weights=weights)
    summed = np.bincount(page_ids, weights=weights, minlength=top + 1)
    pages = np.flatnonzero(summed)  # every posting adds a positive weight
    return pages, summed[pages]
