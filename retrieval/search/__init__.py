"""Searching the grid: query rewrites, hybrid BM25 + dense candidates, the rerank, the passage
an agent reads, and the slice-locked tools agents call."""
