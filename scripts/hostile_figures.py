"""Maintainer tool: what submissions that are cheap to send cost the grader, in
figures (the before and after of issue 26's classes 1 and 6). Each case is a
batch of the attack beside an honest copy of the solution, graded by
`python -m autograder grade --jobs 2` of a checkout, in a sandbox mode of
tests/security/sandbox_modes.py; one Markdown row per case. As root:

    .venv/bin/python scripts/hostile_figures.py [--repo CHECKOUT] [--mode MODE] [CASE ...]

Cases (default: all):
  metadata  four notebooks, each the solution with 20 MB of `[],` in a cell's metadata
  members   a 216 MB zip of 2.4 million empty members, the solution among them
  cells     the solution, then 400 one-line cells
  disk      tests/security/attacks/hw1_attention/fill_disk.py (eight files of 63 MB)

Figures: the scores (attack, honest), the grader's exit status, the batch's wall
time, the peak resident memory of its largest process (the grader: GNU time's
%M) and the peak of disk the batch took where its workers write (free space
of that file system, sampled every 10 ms). --repo grades with another checkout
(an earlier commit unpacked with `git archive`) whose tests/security/sandbox_modes.py
runs the mode; the cases are always built by this one.
"""
from __future__ import annotations

import argparse
import csv
import importlib.util
import inspect
import os
import shlex
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))

from autograder.engine import assignment as assignment_mod  # noqa: E402
from autograder.engine.intake.notebook import MAX_NOTEBOOK_BYTES  # noqa: E402
from tests.conftest import write_notebook  # noqa: E402
from tests.security import bombs  # noqa: E402

MB = 2**20
CASES = ("metadata", "members", "cells", "disk")


def build(case: str, subs: Path, reference: str) -> None:
    """The case's submissions in `subs`, beside honest.ipynb (the solution)."""
    honest = write_notebook(subs / "honest.ipynb", [reference])
    if case == "metadata":
        lists = (MAX_NOTEBOOK_BYTES - len(honest.read_bytes()) - 1000) // 3
        for i in range(4):
            bombs.values_bomb(subs / f"metadata_{i}.ipynb", [reference], lists)
    elif case == "members":
        bombs.member_bomb(subs / "members.zip", honest.read_bytes(), 2_400_000)
    elif case == "cells":
        write_notebook(subs / "cells.ipynb", [reference] + ["x = 1"] * 400)
    else:
        attack = (HERE / "tests/security/attacks/hw1_attention/fill_disk.py").read_text()
        write_notebook(subs / "disk.ipynb", [reference, attack.replace("DISK_MB", "64")])


def sandbox_modes(repo: Path):
    """The checkout's own tests/security/sandbox_modes.py (its REPO is that checkout)."""
    spec = importlib.util.spec_from_file_location(
        "checkout_sandbox_modes", repo / "tests" / "security" / "sandbox_modes.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(case: str, repo: Path, mode: str) -> list[str]:
    modes = sandbox_modes(repo)
    work = modes.workdir(mode)
    try:
        subs, out, scratch = work / "subs", work / "out", work / "tmp"
        for folder in (subs, scratch):
            folder.mkdir()
        build(case, subs, inspect.getsource(assignment_mod.load("hw1_attention").reference))
        subs.chmod(0o700)
        if mode == "user":
            user = modes.grading_user()
            for folder in (subs, scratch):
                os.chown(folder, user.pw_uid, user.pw_gid)
        peak = work / "peak"  # GNU time: the grader's own peak (its children's, if larger)
        script = (f"/usr/bin/time -o {peak} -f %M {modes.python(mode)} -m autograder grade {subs} "
                  f"--assignment hw1_attention --out {out} --jobs 2 --quiet")
        start = time.monotonic()
        proc = subprocess.Popen(modes.command(mode, script, "unused", work),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=dict(os.environ, TMPDIR=str(scratch)))
        peak_disk = _sample_disk(scratch, proc)
        proc.wait()  # its sampler stops
        wall = time.monotonic() - start
        scores = _scores(out / "grades.csv")
        attack = "; ".join(f"{s}" for sid, s in scores.items() if sid != "honest") or "-"
        return [case, mode, attack, scores.get("honest", "-"),
                str(proc.returncode), f"{wall:.1f} s",
                _peak(peak), f"{peak_disk[0] / MB:.0f} MB"]
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _sample_disk(folder: Path, proc: subprocess.Popen) -> list[int]:
    """The most free space the file system of `folder` lost while `proc` runs
    (a list of one, filled by a thread until proc ends)."""
    def free() -> int:
        fs = os.statvfs(folder)
        return fs.f_bavail * fs.f_frsize
    base, peak = free(), [0]

    def sample():
        while proc.poll() is None:
            peak[0] = max(peak[0], base - free())
            time.sleep(0.01)
    threading.Thread(target=sample, daemon=True).start()
    return peak


def _peak(path: Path) -> str:
    """GNU time's %M (KB), as MB; the grader's exit status is on its first line
    when it was not 0."""
    lines = path.read_text().split() if path.is_file() else []
    return f"{int(lines[-1]) / 1024:.0f} MB" if lines and lines[-1].isdigit() else "-"


def _scores(grades: Path) -> dict[str, str]:
    if not grades.is_file():
        return {}
    with open(grades, newline="") as f:
        return {row["submission"]: row["total"] for row in csv.DictReader(f)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", choices=[[], *CASES], default=[],
                        help="default: all")
    parser.add_argument("--repo", type=Path, default=HERE, help="the checkout that grades")
    parser.add_argument("--mode", default="root", help="root, user, container, container-uid")
    args = parser.parse_args(argv)
    why = sandbox_modes(args.repo).unavailable(args.mode)
    if why:
        sys.exit(f"hostile_figures: {why}")
    print(f"grader: {shlex.quote(str(args.repo))}\n")
    print("| case | mode | attack's score | honest | exit | batch wall | grader peak RSS | "
          "disk peak |")
    print("|---|---|---|---|---|---|---|---|")
    for case in args.cases or CASES:
        print("| " + " | ".join(run(case, args.repo.resolve(), args.mode)) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
