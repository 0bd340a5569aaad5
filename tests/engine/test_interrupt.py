"""A local batch stopped by SIGINT or SIGTERM (engine/interrupt.py): does it
exit within seconds with 130 or 143 and no traceback, leave no worker
running, write grades.csv and the reports for exactly those graded, say how
far it got, and does `grade --resume` then finish with the files of a run
that was never interrupted?
"""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import nbformat
import pytest

from autograder import paths, protocol
from autograder.engine import interrupt, resume
from autograder.engine.isolation.workers import WorkerDied
from tests.conftest import FAST_LIMITS

PY = sys.executable
ENV = dict(os.environ, PYTHONPATH=str(paths.ROOT))
EXAMPLES = paths.EXAMPLES / "hw1_attention"
N = 8
TIMED = {"execution_time"}
"""The only results.json field that may differ between two runs: wall time."""
STOP_SECONDS = 5
"""From the signal to grades.csv: the batch stops and kills its workers at once
(about half a second on a busy two-core machine)."""
EXIT_SECONDS = 30
"""From the signal to the exit, the reports written: the report stage's own
time (report.html's plots take most of it: 4 to 8 s on a busy two-core
machine), far less than the rest of the batch."""


def _command(subs: Path, out: Path, *more: str) -> list[str]:
    return [PY, "-m", "autograder", "grade", str(subs), "--assignment", "hw1_attention",
            "--out", str(out), "--jobs", "2", "--quiet",
            *(f"--limit={k}={v}" for k, v in FAST_LIMITS.items()), *more]


def _slow_batch(folder: Path) -> list[str]:
    """N copies of hw1's full solution that sleep a second first, so that a
    batch on two workers is caught mid-grading. Every one scores full marks."""
    nb = nbformat.read(EXAMPLES / "full_solution.ipynb", as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell("import time\ntime.sleep(1.0)"))
    folder.mkdir()
    ids = [f"s{i:02d}" for i in range(N)]
    for sid in ids:
        nbformat.write(nb, str(folder / f"{sid}.ipynb"))
    return ids


def _descendants(pid: int) -> dict[int, str]:
    """{pid: start time} of every process below `pid` (the template, the workers)."""
    parents, starts = {}, {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry.name)], starts[int(entry.name)] = int(fields[1]), fields[19]
    found, frontier = {}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, p in parents.items():
            if p == parent and child not in found:
                found[child] = starts[child]
                frontier.append(child)
    return found


def _still_running(procs: dict[int, str]) -> list[int]:
    """Those of `procs` still there (the same process: its start time), zombies aside."""
    left = []
    for pid, start in procs.items():
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[19] == start and fields[0] != "Z":
            left.append(pid)
    return left


def _untimed(path: Path) -> dict:
    data = json.loads(path.read_text())
    return {k: v for k, v in data.items() if k not in TIMED}


def _files(out: Path) -> list[Path]:
    return sorted(p.relative_to(out) for p in out.rglob("*")
                  if p.is_file() and resume.FOLDER not in p.relative_to(out).parts)


def _graded(out: Path) -> list[str]:
    with open(out / "grades.csv", newline="") as f:
        return sorted(row[0] for row in list(csv.reader(f))[1:])


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> Path:
    """The same batch graded without a stop: what --resume must end with."""
    root = tmp_path_factory.mktemp("uninterrupted")
    _slow_batch(root / "subs")
    done = subprocess.run(_command(root / "subs", root / "out"), env=ENV, cwd=paths.ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return root / "out"


# Heavy, not slow: xdist's workers take groups with a slow test first, and grading hw1
# while the Gradescope container test builds its images (the first minutes) can time out.
@pytest.mark.heavy  # grades batches: the fast tier skips it
@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_an_interrupted_batch_writes_what_it_graded_and_resume_finishes_it(
        tmp_path, uninterrupted, signum, status):
    ids = _slow_batch(tmp_path / "subs")
    out = tmp_path / "out"
    grading = subprocess.Popen(_command(tmp_path / "subs", out), env=ENV, cwd=paths.ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while len(list(out.glob("*/results.json"))) < 2 and grading.poll() is None:
        assert time.monotonic() < deadline, "no two results in time"
        time.sleep(0.05)
    below = _descendants(grading.pid)
    sent = time.monotonic()
    grading.send_signal(signum)
    stopped = None
    while grading.poll() is None and time.monotonic() - sent < 120:
        if stopped is None and (out / "grades.csv").exists():
            stopped = time.monotonic() - sent
        time.sleep(0.02)
    _, err = grading.communicate(timeout=120)
    seconds = time.monotonic() - sent
    print(f"{signal.Signals(signum).name}: grades.csv {stopped} s and exit {seconds:.2f} s "
          "after the signal")

    assert grading.returncode == status, err
    assert stopped is not None and stopped < STOP_SECONDS, err
    assert seconds < EXIT_SECONDS, err
    assert "Traceback" not in err, err
    assert below and not _still_running(below), "the template or a worker outlived the grader"
    said = re.search(r"interrupted: (\d+) of (\d+) submissions graded and written in (\S+); "
                     r"grades\.csv and the reports cover those; rerun with --resume to grade "
                     r"the rest", err)
    assert said, err
    graded = sorted(p.parent.name for p in out.glob("*/results.json"))
    assert (int(said[1]), int(said[2]), said[3]) == (len(graded), N, str(out))
    assert 2 <= len(graded) < N, err
    assert _graded(out) == graded  # grades.csv holds exactly the graded ones
    for sid in graded:  # each a real result, full marks; no zero for the stop's victims
        assert json.loads((out / sid / "results.json").read_text())["score"] == 18.0
        assert (out / sid / "feedback.html").exists()
    assert (out / "gradebook.csv").exists() and (out / "report.html").exists()
    before = {sid: (out / sid / "results.json").read_bytes() for sid in graded}

    done = subprocess.run(_command(tmp_path / "subs", out, "--resume"), env=ENV,
                          cwd=paths.ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert f"resuming: {len(graded)} of {N} submissions are complete" in done.stderr
    for sid, data in before.items():  # kept, not graded again (execution_time would differ)
        assert (out / sid / "results.json").read_bytes() == data
    assert _graded(out) == ids
    files = _files(uninterrupted)
    assert _files(out) == files
    for f in files:
        if f.name == "results.json":
            assert _untimed(out / f) == _untimed(uninterrupted / f), f
        elif f.name != "report.html":  # its runtimes are wall time
            assert (out / f).read_bytes() == (uninterrupted / f).read_bytes(), f


@pytest.mark.heavy  # grades batches: the fast tier skips it
def test_resume_of_a_folder_with_nothing_kept_grades_everyone(tmp_path):
    """--resume without --scheduler into a new folder is a whole run."""
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copy(EXAMPLES / "full_solution.ipynb", subs / "ada.ipynb")
    done = subprocess.run(_command(subs, tmp_path / "out", "--resume"), env=ENV,
                          cwd=paths.ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "resuming: 0 of 1 submissions are complete" in done.stderr
    assert _graded(tmp_path / "out") == ["ada"]


@pytest.mark.heavy  # grades batches: the fast tier skips it
def test_a_new_run_forgets_the_records_of_an_earlier_one(tmp_path):
    """A run without --resume drops DIR/.results, so that resuming it (were it
    interrupted) never keeps a result it did not give."""
    subs, out = tmp_path / "subs", tmp_path / "out"
    subs.mkdir()
    shutil.copy(EXAMPLES / "full_solution.ipynb", subs / "ada.ipynb")
    stale = out / resume.FOLDER / "gone.json"
    stale.parent.mkdir(parents=True)
    stale.write_text("{}")
    done = subprocess.run(_command(subs, out), env=ENV, cwd=paths.ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (out / resume.FOLDER).iterdir()) == ["ada.json"]


ONLY_IN_THE_MAIN_THREAD = pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(),
    reason="signal handlers are the main thread's (a SIGTERM here would end the run)")


@ONLY_IN_THE_MAIN_THREAD
def test_stop_records_the_first_signal_then_ignores_both():
    """A signal is a request: the first is recorded (not raised), and once one
    came both stay ignored, so that a second cannot cut the writing short."""
    try:
        with interrupt.Stop() as stop:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.05)  # the handler runs in this, the main, thread
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
            assert stop.signum == signal.SIGTERM
        assert signal.getsignal(signal.SIGINT) == signal.getsignal(signal.SIGTERM) \
            == signal.SIG_IGN
        assert interrupt.status(signal.SIGINT) == 130 and interrupt.status(signal.SIGTERM) == 143
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@ONLY_IN_THE_MAIN_THREAD
def test_stop_without_a_signal_gives_the_handlers_back():
    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    with interrupt.Stop() as stop:
        assert signal.getsignal(signal.SIGINT) != before[0]
    assert stop.signum is None
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


def test_a_closed_template_starts_no_worker_and_no_new_template():
    """The threads of a stopped batch still ask for workers: they are told the
    batch is stopping, and the closed template is never started again."""
    from autograder.engine.assignment import load
    from autograder.engine.grader import Grader
    grader = Grader(load("hw1_attention")).start()
    template = grader.template
    grader.close()
    with pytest.raises(WorkerDied, match="stopping"):
        grader.template.spawn()
    with pytest.raises(WorkerDied, match="stopping"):
        template.spawn()
    assert template.proc.poll() is not None and template.closed
    assert template.orders.order(protocol.SweepOrder(uid=0, shared=False, folders=()), 1, 1) == b""
    assert template.proc.poll() is not None  # no template started again
