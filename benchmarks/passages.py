"""Passage recall: does what the search tool shows the model hold the answer's evidence?

    uv run python benchmarks/passages.py --store /path/to/grid.sqlite

For each FinanceBench question whose evidence documents are in the store, the tool is
locked to each evidence document's slice and asked the question (k = 5), as a researcher
would. A question counts as **recalled** when the text the model sees holds every gold
figure (the amounts of the question's justification and answer that its evidence pages print:
three digits or a decimal, years left out) or one of its evidence sentences (prose of
eight to sixty words, word for word; table rows are checked through their figures).
Four views of the same hits are scored:

- ``page[:2000]``: each hit's first 2,000 characters, what the tool showed before passages;
- ``passage``: the tool's passages (the matched rows with their column header);
- ``passage@gold``: passages cut from the evidence pages themselves, whatever the ranking:
  how much the passage selection alone loses;
- ``page@gold``: the whole evidence pages, the ceiling (a question whose evidence is a
  table and whose answer is computed has neither a printed figure nor a sentence).

Questions are reported by the evalset's company-grouped splits (train / dev / test, as in
``benchmarks/retrieval.py``): passage rules are designed on train and dev, and test
measures them on companies no rule was read from. ``--half`` reports the older hash halves
instead; ``--misses`` lists train and dev questions whose ``passage@gold`` view misses.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.retrieval import SHARED, add_group_arguments, groups_of, load_cases, load_splits
from retrieval.search.hybrid import HybridSearcher
from retrieval.search.passages import DEFAULT_BUDGET, select_passage
from retrieval.search.tools import EquitySearchTool
from retrieval.sqlite.store import SQLiteStore
from retrieval.store import GridFilter, default_store_path

PAGE_CHARS = 2000
VIEWS = ("page[:2000]", "passage", "passage@gold", "page@gold")
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
_WORDS = re.compile(r"[a-z0-9]+")
_SENTENCE_END = re.compile(r"(?<=[.!?;:])\s+")
_YEAR = re.compile(r"^(?:19|20)\d\d$")


def numbers_in(text: str) -> set[str]:
    """Figures as digit strings: "1,721", "$1721" and "(1,721)" are all "1721"."""
    found = set()
    for raw in _NUMBER.findall(text):
        value = raw.replace(",", "").rstrip(".")
        if "." in value:
            value = value.rstrip("0").rstrip(".")
        found.add(value)
    return found


def words(text: str) -> str:
    return " " + " ".join(_WORDS.findall(text.lower())) + " "


@dataclass
class Gold:
    """What must reach the model for one question."""

    figures: set[str] = field(default_factory=set)
    sentences: list[str] = field(default_factory=list)  # word strings, space-padded
    pages: list[str] = field(default_factory=list)  # evidence page texts


def gold_of(question: dict) -> Gold:
    """The question's gold figures (amounts its evidence pages print) and its evidence
    prose sentences."""
    pages = [ev.get("evidence_text_full_page") or "" for ev in question["evidence"]]
    on_pages = set().union(*(numbers_in(p) for p in pages)) if pages else set()
    stated = numbers_in(question.get("justification") or "") | numbers_in(question["answer"])
    figures = {n for n in stated & on_pages if _is_figure(n)}
    sentences = []
    for ev in question["evidence"]:
        flat = " ".join((ev.get("evidence_text") or "").split())
        for part in _SENTENCE_END.split(flat):
            said = words(part).split()
            prose = sum(w.isalpha() for w in said) >= 0.7 * len(said)
            if 8 <= len(said) <= 60 and prose:
                sentences.append(" " + " ".join(said) + " ")
    return Gold(figures, sentences, pages)


def _is_figure(number: str) -> bool:
    """An amount worth checking: three digits or more, or a decimal; not a year."""
    digits = number.replace(".", "").lstrip("0")
    return not _YEAR.match(number) and (len(digits) >= 3 or ("." in number and digits != ""))


def recalled(gold: Gold, seen: str) -> tuple[bool, bool, bool]:
    """(all figures seen, a sentence seen, recalled) for the text the model saw."""
    seen_numbers = numbers_in(seen)
    figures = bool(gold.figures) and gold.figures <= seen_numbers
    flat = words(seen)
    sentence = any(s in flat for s in gold.sentences)
    return figures, sentence, figures or sentence


@dataclass
class QuestionViews:
    qid: str
    half: str
    split: str
    gold: Gold
    seen: dict[str, list[str]] = field(default_factory=lambda: {v: [] for v in VIEWS})


def run(
    searcher: HybridSearcher,
    questions_path: Path,
    k: int = 5,
    budget: int = DEFAULT_BUDGET,
    splits: dict[str, str] | None = None,
) -> list[QuestionViews]:
    questions = {}
    for n, line in enumerate(questions_path.read_text().splitlines()):
        if line.strip():
            q = json.loads(line)
            questions[q.get("financebench_id") or f"q{n}"] = q
    locked, _, _ = load_cases(questions_path, searcher.store, splits)
    by_question: dict[str, QuestionViews] = {}
    for case in locked:
        q = questions[case.qid]
        views = by_question.setdefault(
            case.qid, QuestionViews(case.qid, case.half, case.split, gold_of(q))
        )
        assert isinstance(case.where, GridFilter)
        tool = EquitySearchTool(searcher, lock=case.where, default_k=k, max_chars=budget)
        for shown in tool.search(case.question):
            views.seen["passage"].append(shown["text"])
            views.seen["page[:2000]"].append(tool.retrieved[shown["uid"]].text[:PAGE_CHARS])
        terms = searcher.prepared(case.question, case.where).terms
        for page in views.gold.pages:
            views.seen["passage@gold"].append(select_passage(page, terms, budget).text)
            views.seen["page@gold"].append(page)
    return list(by_question.values())


def summarise(results: list[QuestionViews], groups: list[str], by: str = "split") -> list[dict]:
    """Recall per view and group; ``by`` is ``"split"`` (company-grouped) or ``"half"``."""
    rows = []
    for view in VIEWS:
        for group in groups:
            chosen = [r for r in results if group == "all" or getattr(r, by) == group]
            if not chosen:
                continue
            scores = [recalled(r.gold, "\n".join(r.seen[view])) for r in chosen]
            with_figures = [s for r, s in zip(chosen, scores, strict=True) if r.gold.figures]
            shares = [
                len(r.gold.figures & numbers_in("\n".join(r.seen[view]))) / len(r.gold.figures)
                for r in chosen
                if r.gold.figures
            ]
            chars = [len(t) for r in chosen for t in r.seen[view]]
            rows.append(
                {
                    "view": view,
                    by: group,
                    "n": len(chosen),
                    "recalled": round(statistics.fmean(s[2] for s in scores), 3),
                    "figures": round(statistics.fmean(s[0] for s in with_figures), 3)
                    if with_figures
                    else 0.0,
                    "figure_share": round(statistics.fmean(shares), 3) if shares else 0.0,
                    "n_figures": len(with_figures),
                    "sentence": round(statistics.fmean(s[1] for s in scores), 3),
                    "chars_per_hit": round(statistics.fmean(chars)) if chars else 0,
                }
            )
    return rows


def misses(results: list[QuestionViews], view: str = "passage@gold") -> list[QuestionViews]:
    """Train and dev questions that ``view`` does not recall but whole gold pages do: what a
    passage rule may be written from (test's misses stay unread)."""
    return [
        r
        for r in results
        if r.split in ("train", "dev")
        and recalled(r.gold, "\n".join(r.seen["page@gold"]))[2]
        and not recalled(r.gold, "\n".join(r.seen[view]))[2]
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=Path, default=SHARED / "questions.jsonl")
    parser.add_argument("--store", type=Path, default=None, help="grid store (default: user's)")
    parser.add_argument("-k", type=int, default=5, help="hits per search (default 5)")
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="passage characters")
    add_group_arguments(parser)
    parser.add_argument(
        "--misses",
        action="store_true",
        help="also list train and dev questions whose gold-page passages miss the evidence",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    if not args.questions.exists():
        sys.exit(f"error: no questions file at {args.questions}")
    store = SQLiteStore(args.store or default_store_path())
    results = run(
        HybridSearcher(store), args.questions, args.k, args.budget, load_splits(args.evalset)
    )
    by, groups = groups_of(args)
    rows = summarise(results, groups, by)
    missed = [r.qid for r in misses(results)] if args.misses else []
    if args.json:
        report = {"store": store.stats(), "k": args.k, "rows": rows}
        print(json.dumps(report | ({"misses": missed} if args.misses else {}), indent=2))
        return
    print(f"store: {store.stats()}  k={args.k}  passage budget={args.budget} chars")
    header = [
        "view",
        by,
        "n",
        "recalled",
        "figures",
        "figure_share",
        "n_figures",
        "sentence",
        "chars_per_hit",
    ]
    print(" | ".join(f"{h:>13}" for h in header))
    for row in rows:
        print(" | ".join(f"{row[h]!s:>13}" for h in header))
    for qid in missed:
        print(f"miss passage@gold {qid}")


if __name__ == "__main__":
    main()
