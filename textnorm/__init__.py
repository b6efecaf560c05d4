"""Wissen Research: text normalisation — the stopword lists, the stemmer and the casing of a
title set inside a sentence, in one place.

Search (BM25 query terms) and the metrics (content-word overlap of answers) both drop
stopwords and compare stems; they keep their own lists because they drop different words
(a query drops "total" and "reported", which an answer's key facts keep), but both lists
are built here from one shared core, and there is one stemmer. Imports nothing but the
standard library, so ``metrics`` and ``retrieval`` can both depend on it.
"""

from textnorm.casing import lower_first
from textnorm.stemming import stem
from textnorm.stopwords import ANSWER_STOPWORDS, FUNCTION_WORDS, QUERY_STOPWORDS

__all__ = ["ANSWER_STOPWORDS", "FUNCTION_WORDS", "QUERY_STOPWORDS", "lower_first", "stem"]
