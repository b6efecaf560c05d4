"""Filling a grid: filings and ``pages.jsonl.gz`` into pages, vectors and facts; the bundled
sample; copying a grid between stores."""
