"""A vectors file shipped beside the pages: used where model and text match, else embedded."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from cli.app import app
from retrieval.ingest.pipeline import ingest
from retrieval.ingest.vectors_file import read_vectors_file, vectors_beside
from retrieval.sqlite.store import SQLiteStore, text_hash

MODEL = "all-MiniLM-L6-v2-onnx-int8"
FIXTURE = Path(__file__).parent / "fixtures" / "facts_statement_pages.jsonl"
runner = CliRunner()


@pytest.fixture
def pages_file(tmp_path) -> Path:
    rows = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
    path = tmp_path / "corpus" / "pages.jsonl.gz"
    path.parent.mkdir()
    with gzip.open(path, "wt", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row) + "\n")
    return path


def rows_of(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def write_vectors(path: Path, rows: list[dict], model=MODEL, stale=(), missing=()) -> np.ndarray:
    """The corpus layout; ``stale`` rows get a wrong text hash, ``missing`` rows no vector."""
    kept = [r for i, r in enumerate(rows) if i not in missing]
    vectors = np.random.default_rng(0).standard_normal((len(kept), 384)).astype(np.float16)
    np.savez_compressed(
        path,
        doc_name=np.array([r["doc_name"] for r in kept]),
        page_index=np.array([r["page_num"] for r in kept], dtype=np.int32),
        text_hash=np.array(
            ["0" * 16 if rows.index(r) in stale else text_hash(r["text"]) for r in kept]
        ),
        vectors=vectors,
        model_id=np.array(model),
    )
    return vectors


def test_matching_vectors_are_used_and_the_rest_reported(tmp_path, pages_file):
    rows = rows_of(pages_file)
    vectors = write_vectors(tmp_path / "v.npz", rows, stale={1}, missing={2})
    store = SQLiteStore(tmp_path / "grid.sqlite", model_id=MODEL)
    report = ingest(pages_file, store, vectors=read_vectors_file(tmp_path / "v.npz"))
    assert (report.vectors_used, report.vectors_mismatched) == (len(rows) - 2, 2)
    assert store.count_missing_vectors(MODEL) == 2
    first = store.pages_by_uid([store.document_pages(rows[0]["doc_name"])[0].uid])[0]
    stored = store.vectors(np.array([first.page_id]))[0]
    row = next(i for i, r in enumerate(rows) if r["doc_name"] == first.doc_name)
    assert np.array_equal(stored.astype(np.float16), vectors[row])


def test_another_models_vectors_are_not_used(tmp_path, pages_file):
    rows = rows_of(pages_file)
    write_vectors(tmp_path / "v.npz", rows, model="some-other-model")
    store = SQLiteStore(tmp_path / "grid.sqlite", model_id=MODEL)
    report = ingest(pages_file, store, vectors=read_vectors_file(tmp_path / "v.npz"))
    assert (report.vectors_used, report.vectors_mismatched) == (0, len(rows))


def test_a_vectors_file_beside_the_pages_is_found(tmp_path, pages_file):
    assert vectors_beside(pages_file) is None
    write_vectors(pages_file.parent / "vectors-minilm.npz", rows_of(pages_file))
    assert vectors_beside(pages_file) == pages_file.parent / "vectors-minilm.npz"


def test_the_samples_own_layout_reads_too():
    from retrieval.ingest.sample import SAMPLE_VECTORS

    shipped = read_vectors_file(SAMPLE_VECTORS)
    assert len(shipped) > 1000 and shipped.model_id == MODEL


def test_a_file_that_is_not_a_vectors_file_is_a_clear_error(tmp_path):
    np.savez(tmp_path / "other.npz", something=np.zeros(3))
    with pytest.raises(ValueError, match="not a vectors file"):
        read_vectors_file(tmp_path / "other.npz")
    (tmp_path / "broken.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="cannot read"):
        read_vectors_file(tmp_path / "broken.npz")


def test_ingest_cli_uses_and_reports_a_vectors_file(tmp_path, pages_file):
    rows = rows_of(pages_file)
    write_vectors(pages_file.parent / "vectors.npz", rows, stale={0})
    store = tmp_path / "grid.sqlite"
    args = ["ingest", str(pages_file), "--store", str(store), "--embed", "skip"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert f"{len(rows) - 1} pages matched; 1 had no vector" in result.stdout
    assert "statement facts" in result.stdout
    missing = runner.invoke(app, [*args, "--vectors", str(tmp_path / "nope.npz")])
    assert missing.exit_code == 2 and "no such file" in missing.output
    (tmp_path / "bad.npz").write_bytes(b"junk")
    bad = runner.invoke(app, [*args, "--vectors", str(tmp_path / "bad.npz")])
    assert bad.exit_code == 2 and "cannot read vectors file" in bad.output
