"""Stopwords: a shared core, and what a search query and an answer each drop beside it."""

from __future__ import annotations

# English function words and the filing boilerplate every question repeats.
FUNCTION_WORDS = frozenset(
    """
    a about all an and any are as at based be been being both but by can company company's
    could did do does each fiscal for from fy had has have how in into is it its just more
    most no not of on only or other over own per same should so such than that the their
    them then there these they this those to under very was were what when where which who
    whom will with would year years
    """.split()
)

# BM25 query terms: also pronouns and prepositions, and the phrasing of analyst questions
# ("calculate", "reported", "total", "using the line items"), which matches every page.
QUERY_STOPWORDS = FUNCTION_WORDS | frozenset(
    """
    above according after again against am amount amounts answer because before below
    between calculate clearly companies compute details doing down during few figure firm
    further given having he her here hers him his i if items itself line many me much my
    nor now off once our out please question relying report reported reports response she
    show shown shows some state through too total until up use used using utilizing value
    values we what's whats while why you your
    """.split()
)

# Content words of an answer (key-fact overlap): also hedges, legal suffixes and a lone
# possessive "s", which say nothing about the fact.
ANSWER_STOPWORDS = FUNCTION_WORDS | frozenset(
    "also corp data inc least less may might s yes".split()
)
