"""How many threads the embedded model should use: prompt and generation speed per count.

    uv run python benchmarks/local_threads.py --threads 1,2 --prompt-tokens 2000

Prompt processing is most of a research call's time (a researcher step sends ~2,000
tokens and gets ~100 back), and llama.cpp's threads spin-wait for each other, so the best
count depends on what else holds the cores. Run it on an idle machine, and again beside
the work the model shares the machine with. The prompt is this project's README (its
content does not change the speed); each count loads the model afresh and reads the whole
prompt, then (the prompt cached) generates up to ``--gen-tokens`` from it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lm.local_engine import DEFAULT_NAME, resolve_model_path

README = Path(__file__).resolve().parents[1] / "README.md"


def measure(path: Path, threads: int, prompt_tokens: int, gen_tokens: int) -> dict:
    from llama_cpp import Llama

    llama = Llama(model_path=str(path), n_ctx=prompt_tokens + gen_tokens + 64,
                  n_threads=threads, seed=0, verbose=False)  # fmt: skip
    tokens = llama.tokenize(README.read_text().encode())[:prompt_tokens]
    prompt = llama.detokenize(tokens).decode(errors="ignore")
    started = time.perf_counter()
    llama.create_completion(prompt, max_tokens=1, temperature=0)
    read_s = time.perf_counter() - started
    started = time.perf_counter()  # the prompt is cached now: this call only generates
    out = llama.create_completion(prompt, max_tokens=gen_tokens, temperature=0)
    gen_s = max(time.perf_counter() - started, 1e-9)
    generated = out["usage"]["completion_tokens"]
    llama.close()
    return {
        "threads": threads,
        "prompt_tokens": len(tokens),
        "prompt_s": round(read_s, 2),
        "prompt_tok_s": round(len(tokens) / read_s, 1),
        "generated": generated,
        "gen_tok_s": round(generated / gen_s, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1,2", help="comma list of thread counts")
    parser.add_argument("--prompt-tokens", type=int, default=2000)
    parser.add_argument("--gen-tokens", type=int, default=64)
    parser.add_argument("--model", default=DEFAULT_NAME, help="a local model name or .gguf path")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    path = resolve_model_path(args.model)
    rows = [
        measure(path, int(n), args.prompt_tokens, args.gen_tokens) for n in args.threads.split(",")
    ]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print("| threads | prompt tokens | prompt s | prompt tok/s | generated | gen tok/s |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['threads']} | {r['prompt_tokens']} | {r['prompt_s']} | "
              f"{r['prompt_tok_s']} | {r['generated']} | {r['gen_tok_s']} |")  # fmt: skip


if __name__ == "__main__":
    main()
