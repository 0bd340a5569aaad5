"""The class report's figures, drawn with matplotlib's Agg backend and
returned as base64 PNG data URIs to embed in the page.

Labels holding submission ids or test titles are drawn as plain text
(parse_math=False): an id such as `eve$\\frac{$` is a student's file name,
not mathematics for matplotlib to parse."""
from __future__ import annotations

import base64
import io

import matplotlib

matplotlib.use("Agg")  # before pyplot: no display on a grading server
import matplotlib.pyplot as plt  # noqa: E402

from autograder.report.stats import QuestionStats, TestStats  # noqa: E402


def _data_uri(fig) -> str:
    buf = io.BytesIO()
    try:
        fig.savefig(buf, format="png", dpi=100, bbox_inches="tight", metadata={"Software": None})
    finally:
        plt.close(fig)  # also when drawing failed: pyplot would keep the figure
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def histogram(totals: list[float], max_total: float) -> str:
    fig, ax = plt.subplots(figsize=(7, 3.2))
    bins = max(1, min(20, int(max_total) or 1))
    ax.hist(totals, bins=bins, range=(0, max_total), color="#4c72b0", edgecolor="white")
    ax.set_xlim(0, max_total)
    ax.set_xlabel(f"total score (out of {max_total:g})")
    ax.set_ylabel("submissions")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_title("Score distribution")
    return _data_uri(fig)


def question_rates(qs: list[QuestionStats]) -> str:
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * len(qs)))
    names = [q.question for q in qs][::-1]
    mean = [100 * q.mean / q.max_score if q.max_score else 0 for q in qs][::-1]
    full = [100 * q.full_marks / q.graded if q.graded else 0 for q in qs][::-1]
    y = range(len(names))
    ax.barh([i + 0.2 for i in y], mean, height=0.4, label="mean score %", color="#4c72b0")
    ax.barh([i - 0.2 for i in y], full, height=0.4, label="full marks %", color="#55a868")
    ax.set_yticks(list(y), names, parse_math=False)
    ax.set_xlim(0, 100)
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=2, fontsize="small")
    ax.set_title("Per question")
    return _data_uri(fig)


def test_pass_rates(ts: list[TestStats], width: int = 60) -> str:
    """Tests sorted by pass rate, the most failed on top."""
    ranked = sorted(ts, key=lambda t: (t.pass_rate, t.question))[::-1]
    fig, ax = plt.subplots(figsize=(8, 0.5 + 0.32 * len(ranked)))
    labels = [_short(f"{t.question}: {t.title}", width) for t in ranked]
    rates = [100 * t.pass_rate for t in ranked]
    ax.barh(range(len(ranked)), rates, color=["#c44e52" if r < 50 else "#4c72b0" for r in rates])
    ax.set_yticks(range(len(ranked)), labels, fontsize="small", parse_math=False)
    ax.set_xlim(0, 100)
    ax.set_xlabel("submissions passing (%)")
    ax.set_title("Per test (most failed on top)")
    return _data_uri(fig)


def runtimes(items: list[tuple[str, float]], limit: float | None = None) -> str:
    """One bar per submission; a histogram once there are too many to label.
    Scaled to the data (runtime_axis), the limit a line only where it falls."""
    if len(items) > 40:
        return _runtime_histogram([s for _, s in items], limit)
    items = sorted(items, key=lambda kv: kv[1])
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.28 * max(1, len(items))))
    ax.barh(range(len(items)), [s for _, s in items], color="#8172b2")
    ax.set_yticks(range(len(items)), [_short(n, 30) for n, _ in items], fontsize="small",
                  parse_math=False)
    _runtime_scale(ax, [s for _, s in items], limit, "lower right")
    ax.set_title("Runtime per submission")
    return _data_uri(fig)


def _runtime_histogram(seconds: list[float], limit: float | None) -> str:
    fig, ax = plt.subplots(figsize=(7, 3.2))
    top, _ = runtime_axis(seconds, limit)
    ax.hist(seconds, bins=30, range=(0, top), color="#8172b2", edgecolor="white")
    _runtime_scale(ax, seconds, limit, "upper right")
    ax.set_ylabel("submissions")
    ax.set_title("Runtime per submission")
    return _data_uri(fig)


def runtime_axis(seconds: list[float], limit: float | None) -> tuple[float, bool]:
    """The runtime axis's upper end and whether the limit is drawn on it: the
    slowest submission plus a tenth (so that 0.2 s bars beside a 60 s limit
    are seen), or the limit when the slowest is close to it (within a
    quarter: a submission near the limit is shown against it)."""
    slowest = max(seconds, default=0.0)
    top = slowest * 1.1 if slowest > 0 else 1.0
    if limit and limit <= top * 1.25:
        return max(top, limit * 1.05), True
    return top, False


def _runtime_scale(ax, seconds: list[float], limit: float | None, legend: str) -> None:
    """The x axis from 0 to runtime_axis's end; the limit as a dashed line
    where it falls on the axis, else named in the axis's label."""
    top, drawn = runtime_axis(seconds, limit)
    label = "seconds (notebook and tests)"
    if drawn:
        ax.axvline(limit, color="#c44e52", linestyle="--", label=f"notebook limit {limit:g} s")
        ax.legend(loc=legend, fontsize="small")
    elif limit:
        label += f"; the notebook limit, {limit:g} s, is beyond the slowest"
    ax.set_xlim(0, top)
    ax.set_xlabel(label)


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "\u2026"
