"""`python -m autograder bench`: our grader against `otter run`, same submissions.

For each assignment with a master notebook (solutions/<id>/<id>.py):

1. `otter assign` builds, from a copy of the master, the solution notebook,
   the student notebook and an otter-grader autograder zip (the copy only
   switches `generate` on, so that otter writes the zip).
2. N submissions are generated from the solution notebook, deterministic in
   the seed: each stub's cell is, with probability one half, replaced by a
   mistake (a file of tests/assignments/corpus/<id>/buggy/ declared for that stub, or the
   student notebook's unanswered stub).
3. Our grader grades all N in one batch (as `python -m autograder grade`
   does), while a sampler thread reads /proc for the memory of the whole
   process tree (this process, the template, every worker).
4. `otter run -a <zip>` grades the first M of the same notebooks, one
   process per submission, one after another, each one timed.

It prints per-submission medians (ours: SubmissionResult.seconds, the time
one submission takes inside the parallel batch, and batch wall / N; otter:
the wall time of one `otter run`) and their ratio. It is a benchmark, not a
test: nothing here fails on a slow machine.
"""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from autograder import corpus, registry

STUB_DEF = r"^(?:def|class)\s+{}\b"


# ---------------------------------------------------------------- otter assign
@dataclass
class Dist:
    """What `otter assign` made from one master."""
    solution: Path
    student: Path
    autograder_zip: Path | None


def otter_assign(assignment: str, work: Path) -> Dist:
    """Run `otter assign` on the master with `generate: true` (as `build` does)."""
    from autograder.build.assign import assign_into
    name = f"{assignment}.ipynb"
    dist = assign_into(registry.get(assignment).master, work, generate=True)
    zips = sorted((dist / "autograder").glob("*.zip"))
    return Dist(dist / "autograder" / name, dist / "student" / name, zips[-1] if zips else None)


def _otter() -> str:
    local = Path(sys.executable).with_name("otter")
    return str(local) if local.exists() else (shutil.which("otter") or "otter")


# ---------------------------------------------------------------- submissions
@dataclass
class Planted:
    """One generated submission: which stubs hold which mistake."""
    id: str
    mistakes: dict[str, str] = field(default_factory=dict)
    stubs: tuple[str, ...] = ()
    """The questions whose stub cell was found (where a mistake could go)."""


def mistakes_for(assignment: str, questions: list[str], student_nb) -> dict[str, list[tuple]]:
    """question -> [(name, cell source)]: the corpus mistakes and the blank stub."""
    found: dict[str, list[tuple]] = {q: [] for q in questions}
    for path in corpus.variants(assignment):
        question = corpus.declared(path).question
        if path.parent.name == "buggy" and question in found:
            found[question].append((path.stem, path.read_text()))
    for q in questions:
        index = stub_cell(student_nb, q)
        if index is not None:
            found[q].append(("unanswered", student_nb.cells[index].source))
    return found


def stub_cell(nb, name: str) -> int | None:
    pattern = re.compile(STUB_DEF.format(re.escape(name)), re.M)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code" and pattern.search(cell.source):
            return i
    return None


def make_submissions(dist: Dist, assignment: str, questions: list[str], n: int, seed: int,
                     folder: Path) -> list[Planted]:
    """Write n notebooks into folder; each stub is a mistake with probability 1/2."""
    import nbformat
    solution = nbformat.read(str(dist.solution), as_version=4)
    student = nbformat.read(str(dist.student), as_version=4)
    for cell in solution.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    cells = {q: stub_cell(solution, q) for q in questions}
    choices = mistakes_for(assignment, questions, student)
    folder.mkdir(parents=True, exist_ok=True)
    planted = []
    for i in range(n):
        rng = random.Random(f"{seed}:{assignment}:{i}")
        nb = nbformat.from_dict(json.loads(json.dumps(solution)))  # a deep copy
        sub = Planted(f"sub{i:04d}", stubs=tuple(q for q in questions if cells[q] is not None))
        for q in questions:
            if cells[q] is None or not choices[q] or rng.random() < 0.5:
                continue
            name, source = rng.choice(choices[q])
            nb.cells[cells[q]].source = source
            sub.mistakes[q] = name
        nbformat.write(nb, str(folder / f"{sub.id}.ipynb"))
        planted.append(sub)
    return planted


# ---------------------------------------------------------------- memory
class TreeMemory:
    """Samples the memory of this process and all its descendants from /proc.

    Two sums over the tree, peak of each over the run: PSS (proportional set
    size: pages shared between the template and its forked workers counted
    once in all) and RSS (every process's resident pages counted in full, an
    upper bound)."""

    def __init__(self, interval: float = 0.05):
        self.interval = interval
        self.peak_pss = self.peak_rss = 0
        self.samples: list[tuple[float, int]] = []  # (seconds since start, PSS)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self.start = time.monotonic()

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            pss = rss = 0
            for pid in tree(os.getpid()):
                p, r = _memory(pid)
                pss, rss = pss + p, rss + r
            self.peak_pss, self.peak_rss = max(self.peak_pss, pss), max(self.peak_rss, rss)
            self.samples.append((time.monotonic() - self.start, pss))
            self._stop.wait(self.interval)


def tree(root: int) -> list[int]:
    """root and its descendants (the template's workers included), read from
    each thread's children list: a few small reads, not a scan of /proc."""
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                with open(f"/proc/{pid}/task/{tid}/children") as f:
                    todo.extend(int(c) for c in f.read().split())
            except (OSError, ValueError):
                pass
    return found


def _memory(pid: int) -> tuple[int, int]:
    """(PSS, RSS) in bytes; (0, 0) for a process that is gone."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            fields = {k: v for k, _, v in (line.partition(":") for line in f)
                      if k in ("Pss", "Rss")}
        return (int(fields["Pss"].split()[0]) * 1024, int(fields["Rss"].split()[0]) * 1024)
    except (OSError, KeyError, ValueError):
        return 0, 0


# ---------------------------------------------------------------- the two graders
@dataclass
class Figures:
    assignment: str
    n: int = 0
    jobs: int = 0
    wall: float = 0.0
    """Our batch, template start to grades.csv."""
    seconds: list[float] = field(default_factory=list)
    """SubmissionResult.seconds of each submission."""
    first: list[float] = field(default_factory=list)
    """The first test of each submission: it starts the worker and runs the notebook."""
    others: list[float] = field(default_factory=list)
    """The other tests of each submission, together."""
    agree: int = 0
    """Submissions whose per-question scores match the planted mistakes."""
    stubs: int = 0
    """Questions with a stub cell, on which the agreement is checked."""
    disagree: list[str] = field(default_factory=list)
    """What went otherwise for the others."""
    peak_pss: int = 0
    peak_rss: int = 0
    pss_early: int = 0
    """Tree PSS once a tenth of the batch was graded (for growth)."""
    pss_late: int = 0
    otter_seconds: list[float] = field(default_factory=list)
    otter_scores: list[float] = field(default_factory=list)
    otter_note: str = ""
    load: tuple[float, float] = (0.0, 0.0)
    """1-minute load average of the machine before and after our batch."""
    profile: str = ""
    """With --profile: where the time went, per cell and per test (bench_profile)."""


def run_ours(assignment: str, folder: Path, out: Path, planted: list[Planted],
             jobs: int | None, figures: Figures, sources: list[str] | None = None) -> None:
    """Grade the folder as `grade` does; with `sources` (the solution notebook's
    code cells), also profile the batch."""
    from autograder.engine import assignment as assignment_mod
    from autograder.engine import batch
    a = assignment_mod.load(assignment)
    before = os.getloadavg()[0]
    with TreeMemory() as mem:
        result = batch.grade_folder(assignment, folder, out, jobs=jobs,
                                    progress=sys.stderr.isatty(), profile=sources is not None)
    figures.n, figures.jobs = len(result.results), jobs or os.cpu_count() or 1
    figures.wall = result.seconds
    figures.load = (before, os.getloadavg()[0])
    figures.seconds = [r.seconds for r in result.results]
    figures.first = [r.tests[0].seconds for r in result.results if r.tests]
    figures.others = [sum(t.seconds for t in r.tests[1:]) for r in result.results if r.tests]
    figures.peak_pss, figures.peak_rss = mem.peak_pss, mem.peak_rss
    figures.pss_early, figures.pss_late = _growth(mem.samples, result.seconds)
    if sources is not None:
        from autograder import bench_profile
        figures.profile = bench_profile.report(result.results, sources)
    by_id = {r.submission: r for r in result.results}
    for sub in planted:
        r = by_id.get(sub.id)
        if r is None or r.error:
            figures.disagree.append(f"{sub.id}: {r.error if r else 'no result'}")
            continue
        scores = r.question_scores(a.questions)
        figures.stubs = len(sub.stubs)
        if all((scores[q] < a.config.max_points(q)) == (q in sub.mistakes) for q in sub.stubs):
            figures.agree += 1
        else:
            failed = [f"{t.question}::{t.name}: {t.output[:150]}"
                      for t in r.tests if t.status == "failed" and t.question in sub.stubs]
            figures.disagree.append(f"{sub.id}: planted {sub.mistakes or 'nothing'}; "
                                    f"failed {failed}"[:600])


def _growth(samples: list[tuple[float, int]], wall: float) -> tuple[int, int]:
    """Tree PSS peaks in the second tenth and the last tenth of the run."""
    def peak(lo, hi):
        return max((p for t, p in samples if lo <= t < hi), default=0)
    return peak(0.1 * wall, 0.2 * wall), peak(0.9 * wall, wall)


def run_otter(dist: Dist, folder: Path, m: int, work: Path, figures: Figures) -> None:
    if dist.autograder_zip is None:
        figures.otter_note = "otter assign wrote no autograder zip"
        return
    for nb in sorted(folder.glob("*.ipynb"))[:m]:
        out = work / "otter-out" / nb.stem
        out.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        proc = subprocess.run([_otter(), "run", "--no-logo", "-a", str(dist.autograder_zip),
                               "-o", str(out), str(nb)], cwd=out,
                              capture_output=True, text=True)
        figures.otter_seconds.append(time.perf_counter() - start)
        try:
            tests = json.loads((out / "results.json").read_text())["tests"]
            figures.otter_scores.append(sum(t.get("score") or 0 for t in tests))
        except (OSError, ValueError, KeyError):
            figures.otter_note = f"otter run wrote no results for {nb.name}: {proc.stderr[-300:]}"


# ---------------------------------------------------------------- report
def report(f: Figures) -> str:
    mb = 2**20
    lines = [f"{f.assignment}: {f.n} generated submissions, {f.jobs} in parallel"]
    if f.seconds:
        med = statistics.median(f.seconds)
        per = f.wall / f.n
        lines += [
            f"  ours   median per submission (SubmissionResult.seconds): {med:.3f} s",
            f"  ours   batch wall / N: {per:.3f} s  (batch wall {f.wall:.1f} s, "
            f"template start included)",
            f"  ours   where it goes (medians): worker start + notebook cells + first test "
            f"{statistics.median(f.first or [0]):.3f} s, the other tests "
            f"{statistics.median(f.others or [0]):.3f} s",
            f"  ours   scores match the planted mistakes: {f.agree}/{f.n} "
            f"(on the {f.stubs} questions with a stub cell)",
            *(f"    {line}" for line in f.disagree[:3]),
            f"  memory peak of the whole tree (grader + template + workers, /proc "
            f"every 0.05 s): PSS {f.peak_pss / mb:.0f} MB, RSS summed {f.peak_rss / mb:.0f} MB",
            f"  memory growth: tree PSS {f.pss_early / mb:.0f} MB at 10-20% of the batch, "
            f"{f.pss_late / mb:.0f} MB at 90-100%",
            f"  machine load average (1 min) before/after our batch: {f.load[0]:.1f}/"
            f"{f.load[1]:.1f} on {os.cpu_count()} cores (other work slows every figure)",
            *([f.profile] if f.profile else []),
        ]
    if f.otter_seconds:
        omed = statistics.median(f.otter_seconds)
        lines.append(f"  otter  median per submission (`otter run`, {len(f.otter_seconds)} "
                     f"submissions, one at a time): {omed:.3f} s")
        if f.seconds:
            lines.append(f"  ratio  otter median / our median: "
                         f"{omed / statistics.median(f.seconds):.1f}x; "
                         f"otter median / our batch wall per submission: "
                         f"{omed / (f.wall / f.n):.1f}x")
    if f.otter_note:
        lines.append(f"  otter  {f.otter_note}")
    return "\n".join(lines)


def summary(all_figures: list[Figures]) -> str:
    """One Markdown table of every assignment benchmarked in this run (the
    blocks above, side by side: docs/speed.md's tables are these)."""
    mb = 2**20
    rows = ["| assignment | our median | our wall / N | otter median | otter / our median "
            "| peak PSS | load | planted mistakes matched |",
            "|---|---|---|---|---|---|---|---|"]
    for f in all_figures:
        if not f.seconds:
            rows.append(f"| {f.assignment} | no result | | | | | | |")
            continue
        med = statistics.median(f.seconds)
        omed = statistics.median(f.otter_seconds) if f.otter_seconds else None
        otter = (f"{omed:.2f} s", f"{omed / med:.1f}x") if omed else ("-", "-")
        rows.append(f"| {f.assignment} | {med:.3f} s | {f.wall / f.n:.3f} s | {otter[0]} | "
                    f"{otter[1]} | {f.peak_pss / mb:.0f} MB | {f.load[0]:.1f} | "
                    f"{f.agree}/{f.n} |")
    return "\n".join(rows)


def code_cells(notebook: Path) -> list[str]:
    """The code cells of a notebook as the grader runs them (for the profile's labels)."""
    from autograder.engine.intake.notebook import read_cells
    return read_cells(notebook.read_bytes()).code


def main(*, assignments: list[str] | None = None, n: int = 50, otter_n: int = 10,
         skip_otter: bool = False, seed: int = 0, jobs: int | None = None,
         keep: Path | None = None, dask: list[int] | None = None, profile: bool = False) -> int:
    """Benchmark every assignment in `assignments` (default: all with a master);
    with `dask`, also the local path against local Dask clusters of those sizes;
    with `profile`, print where the time goes, per cell and per hidden test."""
    with_master = [a.id for a in registry.all_assignments() if a.has_master]
    chosen = assignments or with_master
    missing = [a for a in chosen if a not in with_master]
    if missing or not chosen:
        print(f"error: no master notebook and grading config for {missing or 'any assignment'}"
              f"; benchmarkable: {', '.join(with_master) or 'none'}", file=sys.stderr)
        return 2
    from autograder.engine import config as config_mod
    root = Path(tempfile.mkdtemp(prefix="autograder-bench-")) if keep is None else keep
    done: list[Figures] = []
    try:
        for assignment in chosen:
            work = root / assignment
            shutil.rmtree(work, ignore_errors=True)
            dist = otter_assign(assignment, work)
            questions = config_mod.load(assignment).questions
            folder = work / "submissions"
            planted = make_submissions(dist, assignment, questions, n, seed, folder)
            figures = Figures(assignment)
            run_ours(assignment, folder, work / "ours", planted, jobs, figures,
                     code_cells(dist.solution) if profile else None)
            if not skip_otter and otter_n > 0:
                run_otter(dist, folder, otter_n, work, figures)
            print(report(figures), flush=True)
            done.append(figures)
            if dask:
                from autograder.cluster import bench as cluster_bench
                print(cluster_bench.run(assignment, folder, work, dask), flush=True)
        if len(done) > 1:
            print("\nAll assignments of this run (load: 1-minute load average before each "
                  "batch):\n" + summary(done), flush=True)
    finally:
        if keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0
