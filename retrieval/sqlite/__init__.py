"""The embedded grid: one SQLite file with FTS5 (BM25), dense vectors and statement facts."""
