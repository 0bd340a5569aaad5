"""Is the grader's own time bounded, whatever a submission hands back to a hidden test?

Each file in tests/security/attacks/hw6_encoder_decoder/ is one attack on the trusted
side's time, headed as the corpus of test_integrity.py is (`# expect:`, `# with:`). They
are graded in ONE batch by the command line (a subprocess with a deadline: the code
before the bound ran past it), beside an honest copy of the reference, which must get
full marks. Two defences stop them, and each is shown alone:

* state a test reads back is refused past the size it declares (Student.read): the
  batch's greedy_decode tests fail with that message;
* the test's own time in the grader is budgeted (engine/driving/budget.py): with the
  size bound lifted, the same attack's pairwise walk is stopped at limits.test_seconds
  and the test fails with the budget's message.
"""
from __future__ import annotations

import inspect
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.engine import assignment as assignment_mod
from tests.conftest import write_notebook
from tests.security.test_integrity import _header, judge_attack

# Heavy (grades attack batches in subprocesses): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

ASSIGNMENT = "hw6_encoder_decoder"
ATTACKS = Path(__file__).parent / "attacks" / ASSIGNMENT
BATCH_SECONDS = 150
"""The batch's wall clock, at most (about 25 s here; before the bound, one attack
alone ran past 200 s)."""
READ_BACK = "handed back more than"
OUT_OF_TIME = "the grader's time for this test ran out (budget"


def _reference(a) -> str:
    return inspect.getsource(a.reference)


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    a = assignment_mod.load(ASSIGNMENT)
    root = tmp_path_factory.mktemp("grader-time")
    subs, out = root / "subs", root / "out"
    subs.mkdir()
    for path in sorted(ATTACKS.glob("*.py")):
        own = path.read_text()
        write_notebook(subs / f"{path.stem}.ipynb",
                       [_reference(a), own] if _header(path).get("with") == "reference" else [own])
    write_notebook(subs / "honest_full.ipynb", [_reference(a)])
    start = time.perf_counter()
    try:
        proc = subprocess.run([sys.executable, "-m", "autograder", "grade", str(subs),
                               "--assignment", ASSIGNMENT, "--out", str(out), "--jobs", "2",
                               "--quiet"], capture_output=True, text=True,
                              timeout=BATCH_SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the batch ran past {BATCH_SECONDS} s: the grader's time is unbounded")
    seconds = time.perf_counter() - start
    print(f"batch of {len(list(subs.iterdir()))} submissions: {seconds:.1f} s")
    results = {p.parent.name: json.loads(p.read_text()) for p in out.glob("*/results.json")}
    return {"a": a, "proc": proc, "results": results, "seconds": seconds}


def test_the_batch_finishes_in_time_and_the_honest_copy_gets_full_marks(batch):
    assert batch["proc"].returncode == 0, batch["proc"].stderr[-3000:]
    assert batch["seconds"] < BATCH_SECONDS
    assert batch["results"]["honest_full"]["score"] == batch["a"].max_total


@pytest.mark.parametrize("attack", sorted(p.stem for p in ATTACKS.glob("*.py")))
def test_attack_outcome(batch, attack):
    judge_attack(batch["a"], batch["results"][attack], ATTACKS / f"{attack}.py")


def test_a_huge_record_is_refused_before_the_test_reads_it(batch):
    failed = [t for t in batch["results"]["huge_step_record"]["tests"]
              if t["number"] == "greedy_decode" and t["status"] == "failed"]
    assert len(failed) == 4  # every test that reads the record back
    assert all(READ_BACK in t["output"] or OUT_OF_TIME in t["output"] for t in failed), failed


def test_the_budget_alone_stops_the_walk(grade_notebooks, monkeypatch):
    """Without the size bound, the test's pairwise walk over 20,000 entries (minutes of
    the grader's time) is stopped at its budget; the honest copy is untouched."""
    from autograder.hw6_encoder_decoder import test_greedy_decode
    monkeypatch.setattr(test_greedy_decode, "_record_bound", lambda max_len: 10**9)
    a = assignment_mod.load(ASSIGNMENT)
    attack = (ATTACKS / "huge_step_record.py").read_text()
    start = time.perf_counter()
    results = grade_notebooks(ASSIGNMENT, {"attack": [_reference(a), attack],
                                           "honest": [_reference(a)]}, test_seconds=2)
    assert time.perf_counter() - start < BATCH_SECONDS
    assert results["honest"].score == a.max_total
    walked = {t.name: t for t in results["attack"].tests}["test_stops_after_eos"]
    assert walked.score == 0 and walked.output.startswith(f"{OUT_OF_TIME} 2 s"), walked.output
    assert walked.seconds < 30
