"""Wissen Research: retrieval — the grid of filing pages and how agents search it.

Ingestion (PDFs, ``pages.jsonl.gz``), the page stores behind one ``PageStore`` interface,
hybrid BM25 + dense search with reranking, the slice-locked agent tools, and the readers of
what a text names (``retrieval.mentions`` for companies, ``domain.periods`` for fiscal
years and quarters) that the planner and soft search scoping share.
"""
