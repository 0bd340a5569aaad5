"""DIR/similarity.html: pairs of submissions whose answers are unusually alike.

It flags for a person to look at; it changes no score and tells students
nothing. What must stay true:

* only answers count: per question, the cells that define the stub, with
  every line the student notebook hands out removed (report.answers), read
  from what grading kept of each notebook (no submission is read again);
* everything shown is student text, cleaned where it was read and escaped
  here (htmlpage.esc);
* one submission whose answers cannot be taken costs its own place on the
  page (it is named there), never the page;
* the cost is bounded before the work starts (below).

How: copydetect, which implements MOSS's winnowing. An answer's tokens are
normalised (variable names -> V, function names -> F, strings -> S,
comments and layout dropped), and every NOISE-character run of them is
hashed: a fingerprint. So renaming variables, reformatting or rewriting
comments changes nothing, while two independent solutions share only the
short idioms everyone writes. Fingerprints of the student notebook's code
are boilerplate, and so is any fingerprint that more than half the answers
to a question have (MOSS's -m: what half the class writes is no evidence
between two of them).

Two answers are alike in the share of one's fingerprinted text that the
other contains (copydetect's similarity, the larger of the two shares, so
that padding a copy with extra code does not hide it); a pair is flagged
when a question's answers share at least THRESHOLD of that and at least
MIN_MATCH normalised characters. Pairs are ranked by their most alike
question.

Cost: fingerprinting is linear in the size of the answers. Comparing is
pairwise, n (n - 1) / 2 pairs per question for n answers: each pair first
gets a cheap look (the intersection of two sets of fingerprints, a few
microseconds), and only pairs sharing at least half the threshold are
compared in full by copydetect (linear in the two answers' length: 2 ms for
two answers of 1,500 characters), at most MAX_COMPARED of them and
MAX_COMPARED_CHARS characters of answers per question, the most alike
first. At most MAX_PAIRS pairs are looked at per question (every pair up to
about 2,400 submissions); the page says how many pairs were not compared.
Every answer is at most answers.ANSWER_CHARS long, so each bound holds
whatever the submissions hold. Measured figures: docs/speed.md.
"""
from __future__ import annotations

import io
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import combinations, islice
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib

matplotlib.use("Agg")  # copydetect imports pyplot: no display on a grading server
from copydetect import CodeFingerprint, compare_files  # noqa: E402

from autograder import guard  # noqa: E402
from autograder.report import answers  # noqa: E402
from autograder.report.htmlpage import esc, page, table  # noqa: E402
from autograder.writing import write_atomic  # noqa: E402

if TYPE_CHECKING:  # annotations only: importing the engine's batch starts torch
    from autograder.engine.batch import Batch

NOISE = 25
"""Normalised characters per fingerprint (copydetect's noise threshold)."""
THRESHOLD = 0.8
"""Share of an answer found in the other one that flags the pair."""
MIN_MATCH = 60
"""Normalised characters two answers must share to be flagged (a one-liner
everyone writes the same way is not evidence)."""
COMMON = 10
COMMON_SHARE = 0.5
"""A fingerprint that more than COMMON answers to a question and more than
this share of them have is an idiom of the class, not evidence: ignored."""
MAX_PAIRS = 3_000_000
"""Pairs looked at per question: every pair up to about 2,400 answers."""
MAX_COMPARED = 5_000
"""Pairs compared in full per question, those most alike at first look."""
MAX_COMPARED_CHARS = 20_000_000
"""Characters of answers (both of each pair) compared in full per question:
5,000 pairs of honest answers (3,000 characters a pair) fit; 5,000 pairs of
answers padded to ANSWER_CHARS would take ten times longer."""
MAX_SHOWN = 100
"""Flagged pairs listed on the page."""
MAX_DETAIL_CHARS = 4_000_000
"""Characters of side-by-side matches on the page (at least one pair's)."""


@dataclass
class Alike:
    """Two submissions' answers to one question that are unusually alike."""
    question: str
    first: str
    second: str
    similarity: float
    shares: tuple[float, float]
    matched: int
    """Normalised characters of the first answer found in the second."""
    texts: tuple[str, str]
    slices: tuple
    """copydetect's (starts, ends) of the matching regions in each text."""


def write(path: Path, batch: Batch) -> str:
    """Write the page; return the line the command prints."""
    a = batch.assignment
    by_submission, unread = {}, []
    for r in sorted(batch.results, key=lambda r: r.submission):
        if r.error:
            continue
        taken, error = guard.attempt(f"the answers of {r.submission}", answers.of_result,
                                     r, a.id, a.questions)
        if error:
            unread.append(f"{r.submission} ({error})")
        else:
            by_submission[r.submission] = taken
    boilerplate = _fingerprint(answers.starter_code(a.id)).hashes
    found, skipped = [], 0
    for question in a.questions:
        texts = {sid: qs[question] for sid, qs in by_submission.items() if question in qs}
        alike, left_out = compare(question, texts, boilerplate)
        found += alike
        skipped += left_out
    write_atomic(path, render(a.config.title, found, len(by_submission), skipped, unread))
    pairs = len({(x.first, x.second) for x in found})
    return (f"similarity: {path} ({pairs} pair{'' if pairs == 1 else 's'} of submissions "
            "with unusually alike answers, for a person to look at; no score changed)")


def compare(question: str, texts: dict[str, str], boilerplate: set[int]
            ) -> tuple[list[Alike], int]:
    """The flagged pairs among `texts` ({submission: answer}) and how many
    pairs were not compared (beyond MAX_PAIRS, or MAX_COMPARED in full).
    `boilerplate`: fingerprints of the code the student notebook hands out."""
    prints = {sid: _fingerprint(text, boilerplate) for sid, text in sorted(texts.items())}
    holders = Counter(h for fp in prints.values() for h in fp.hashes)
    common = {h for h, n in holders.items() if n > max(COMMON, COMMON_SHARE * len(prints))}
    hashes = {sid: fp.hashes - common for sid, fp in prints.items()}
    looks = ((_estimate(hashes[a], hashes[b]), a, b)
             for a, b in islice(combinations(hashes, 2), MAX_PAIRS))
    ranked = sorted((look for look in looks if look[0] >= THRESHOLD / 2), key=lambda x: -x[0])
    candidates = _within_budget([(a, b) for _, a, b in ranked[:MAX_COMPARED]], texts)
    if common:  # the class's idioms are boilerplate too: fingerprint again without them
        boilerplate = set(boilerplate) | common
        prints.update({sid: _fingerprint(texts[sid], boilerplate)
                       for sid in {sid for pair in candidates for sid in pair}})
    found = [x for x in (_alike(question, prints, texts, *pair) for pair in candidates) if x]
    left_out = max(0, len(hashes) * (len(hashes) - 1) // 2 - MAX_PAIRS)
    return found, left_out + len(ranked) - len(candidates)


def _within_budget(pairs: list[tuple[str, str]], texts: dict[str, str]) -> list[tuple[str, str]]:
    """The first `pairs` whose answers add up to at most MAX_COMPARED_CHARS
    (copydetect's full comparison is linear in their length)."""
    kept, chars = [], 0
    for a, b in pairs:
        chars += len(texts[a]) + len(texts[b])
        if chars > MAX_COMPARED_CHARS:
            break
        kept.append((a, b))
    return kept


def _estimate(first: set[int], second: set[int]) -> float:
    """Shared fingerprints over the smaller answer's: a cheap first look
    (a C-level set intersection) before copydetect compares in full."""
    smaller = min(len(first), len(second))
    return len(first & second) / smaller if smaller else 0.0


def _fingerprint(text: str, boilerplate=None) -> CodeFingerprint:
    return CodeFingerprint("answer.py", NOISE, 1, boilerplate=list(boilerplate or []),
                           fp=io.StringIO(text), language="python")


def _alike(question, prints, texts, first, second) -> Alike | None:
    matched, shares, slices = compare_files(prints[first], prints[second])
    similarity = float(max(shares))
    if similarity < THRESHOLD or matched < MIN_MATCH:
        return None
    return Alike(question, first, second, similarity, (float(shares[0]), float(shares[1])),
                 int(matched), (texts[first], texts[second]), slices)


def render(title: str, found: list[Alike], submissions: int, skipped: int,
           unread: list[str] = ()) -> str:
    """The page; `unread`: the submissions whose answers could not be taken
    (each "id (why)"), named on it."""
    by_pair: dict[tuple[str, str], list[Alike]] = defaultdict(list)
    for x in found:
        by_pair[(x.first, x.second)].append(x)
    ranked = sorted(by_pair.items(), key=lambda kv: (-max(x.similarity for x in kv[1]), kv[0]))
    body = [f"<h1>{esc(title)}: similar answers</h1>",
            f"<p>The answers of {submissions} graded submissions, compared question by "
            "question with the code the notebook hands out removed. Listed: pairs whose "
            f"answers to a question share at least {THRESHOLD:.0%} of their fingerprinted "
            "text, highest first. Renamed variables and reformatting do not hide a copy; "
            "short idioms the whole class writes do not count. <strong>This flags pairs for "
            "a person to look at; it changes no score.</strong></p>"]
    if skipped:
        body.append(f"<p class=\"broken\">{skipped} pairs of answers were not compared in "
                    f"full: at most {MAX_PAIRS:,} pairs are looked at per question and "
                    f"{MAX_COMPARED:,} compared ({MAX_COMPARED_CHARS:,} characters of "
                    "answers), the most alike first.</p>")
    if unread:
        body.append(f"<p class=\"broken\">The answers of {len(unread)} graded submissions "
                    "could not be taken, so they are not compared (a fault of the grader, "
                    f"logged): {esc(', '.join(unread[:20]))}"
                    f"{' ...' if len(unread) > 20 else ''}. Look at their notebooks "
                    "yourself.</p>")
    if not ranked:
        return page(f"{title}: similar answers", body + ["<p>No pair stands out.</p>"])
    details = _details(ranked[:MAX_SHOWN])
    rows = [[f'<a href="#pair-{i}">{esc(a)} &amp; {esc(b)}</a>' if i < len(details)
             else f"{esc(a)} &amp; {esc(b)}",
             esc(", ".join(x.question for x in xs)), f"{max(x.similarity for x in xs):.0%}"]
            for i, ((a, b), xs) in enumerate(ranked[:MAX_SHOWN])]
    body += ["<h2>Pairs, most alike first</h2>",
             table(["submissions", "questions", "most alike"], rows, numeric={2}, raw=True)]
    if len(ranked) > MAX_SHOWN:
        body.append(f"<p>{len(ranked) - MAX_SHOWN} more pairs are not shown.</p>")
    if len(details) < min(len(ranked), MAX_SHOWN):
        body.append(f"<p>The matches of the first {len(details)} pairs are shown below; the "
                    "page would grow too large for the rest.</p>")
    return page(f"{title}: similar answers", body + details)


def _details(ranked) -> list[str]:
    """One block per pair, the matches side by side, while the page stays
    under MAX_DETAIL_CHARS (answers are long, and escaping can grow them)."""
    blocks, size = [], 0
    for i, ((a, b), xs) in enumerate(ranked):
        block = f'<h2 id="pair-{i}">{esc(a)} &amp; {esc(b)}</h2>\n' + "\n".join(
            _side_by_side(x) for x in xs)
        size += len(block)
        if size > MAX_DETAIL_CHARS and blocks:
            break
        blocks.append(block)
    return blocks


def _side_by_side(x: Alike) -> str:
    head = (f"<h3>{esc(x.question)}: {x.shares[0]:.0%} of {esc(x.first)}'s answer is in "
            f"{esc(x.second)}'s, {x.shares[1]:.0%} the other way</h3>")
    cells = [f"<pre>{_highlight(text, slices)}</pre>" for text, slices in zip(x.texts, x.slices)]
    return head + table([esc(x.first), esc(x.second)], [cells], raw=True)


def _highlight(text: str, slices) -> str:
    """`text` escaped, with the matching regions in <mark>."""
    out, at = [], 0
    for start, end in zip(*(list(map(int, s)) for s in slices)):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        out += [esc(text[at:start]), "<mark>", esc(text[start:end]), "</mark>"]
        at = end
    return "".join(out + [esc(text[at:])])
