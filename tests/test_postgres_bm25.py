"""BM25 scoring on the PostgreSQL grid's postings: sums per page and the best k, in plain
numpy, agree with a dictionary sum and a full sort (no server needed)."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from retrieval.postgres.bm25 import _summed_by_page, lexemes_of

postings = st.lists(
    st.tuples(st.integers(1, 3_000_000), st.integers(1, 50).map(lambda n: n / 8)),
    min_size=1,
    max_size=60,
)


@given(postings)
def test_weights_are_summed_per_page_whether_ids_are_dense_or_sparse(rows):
    expected = defaultdict(float)
    for page, weight in rows:
        expected[page] += weight
    ids = np.array([p for p, _ in rows], dtype=np.int64)
    weights = np.array([w for _, w in rows])
    pages, scores = _summed_by_page(ids, weights)
    assert list(pages) == sorted(expected)
    assert np.allclose(scores, [expected[p] for p in pages])


def test_a_phrase_query_reads_as_its_lexemes():
    assert lexemes_of("'10' <-> 'k'") == ("10", "k")
    assert lexemes_of("'o''neil'") == ("o'neil",)
