"""The grid for teams: PostgreSQL with a stored tsvector for BM25 and pgvector for vectors."""
