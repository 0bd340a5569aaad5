"""Can a submission raise its own score, read what is hidden, or harm another?

Each file in tests/attacks/<assignment>/ is one attack, a small submission
whose first lines declare the expected outcome:

    # expect: zero | full | partial <question> | any
    # with: reference        (the reference solution is the notebook's first cell)
    # score: 13              (optional: the exact total it must get)

The whole corpus is graded in ONE batch with two jobs, next to honest
submissions, inside a private PID namespace (so a defence that fails cannot
take this machine's other processes with it), and then:
every submission has a result; each attack gets its declared outcome; the
honest submissions get exactly the scores they get when graded alone; no
output contains secrets; no process of the batch is left, nor any worker's
folder. Where the machine allows it, the batch runs under a memory limit (a
cgroup made for it), which the grader must never reach (reply bombs included).
"""
from __future__ import annotations

import inspect
import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.engine import assignment as assignment_mod
from tests import leaks
from tests.cgroup import MemoryLimit
from tests.conftest import grade, write_notebook

ATTACKS = Path(__file__).parent / "attacks"
CORPUS = Path(__file__).parent / "corpus"
LIMITS = ["notebook_seconds=6", "call_seconds=3", "restarts=2"]
# The whole batch (grader, template, two workers at a time, page cache) stays
# below this; a 128 MB reply bomb parsed as JSON takes the grader beyond it.
BATCH_MEMORY = 2048 * 2**20
LEFTOVER = ("import os; print(sum(1 for p in os.listdir('/proc') if p.isdigit() "
            "and os.stat('/proc/' + p).st_uid >= 200000))")

needs_root_and_unshare = pytest.mark.skipif(
    os.geteuid() != 0 or not shutil.which("unshare"),
    reason="the sandbox's full guarantees need root (CI runs as root) and unshare")


def _header(path: Path) -> dict:
    head = {}
    for line in path.read_text().splitlines()[:3]:
        m = re.match(r"#\s*(expect|with|score):\s*(.+)", line)
        if m:
            head[m.group(1)] = m.group(2).strip()
    return head


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    """Grades every attack plus honest submissions; returns what the tests need."""
    root = tmp_path_factory.mktemp("attacks")
    subs = root / "subs"
    subs.mkdir()
    a = assignment_mod.load("hw1_attention")
    reference = inspect.getsource(a.reference)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    for path in sorted((ATTACKS / a.id).glob("*.py")):
        head = _header(path)
        source = path.read_text().replace("PORT", str(port))
        cells = [reference, source] if head.get("with") == "reference" else [source]
        write_notebook(subs / f"{path.stem}.ipynb", cells)
    honest = {"honest_full": [reference],
              "honest_partial": [reference, (CORPUS / a.id / "buggy" / "sdpa_no_scaling.py").read_text()]}
    alone = subs.parent / "alone"
    alone.mkdir()
    for name, cells in honest.items():
        write_notebook(subs / f"{name}.ipynb", cells)
        write_notebook(alone / f"{name}.ipynb", cells)
    baseline = grade(a.id, alone, root / "alone-out")
    out = root / "out"
    cmd = (f"{sys.executable} -m autograder grade {subs} --assignment {a.id} --out {out} "
           f"--jobs 2 --quiet " + " ".join(f"--limit {x}" for x in LIMITS)
           + f"; {sys.executable} -c \"{LEFTOVER}\"")
    scratch = root / "tmp"  # the grader's temporary folders (TMPDIR), to find leftovers
    scratch.mkdir()
    with MemoryLimit(BATCH_MEMORY) as memory:
        batch = shlex.join(["unshare", "--pid", "--fork", "--mount-proc", "sh", "-c", cmd])
        proc = subprocess.run(["sh", "-c", memory.wrap(batch)], capture_output=True, text=True,
                              timeout=600, cwd=Path(__file__).parent.parent,
                              env=dict(os.environ, TMPDIR=str(scratch)))
        memory_used = {"peak": memory.peak(), "oom_kills": memory.oom_kills(),
                       "reason": memory.reason}
    listener.close()
    results = {p.parent.name: json.loads(p.read_text()) for p in out.glob("*/results.json")}
    return {"a": a, "proc": proc, "out": out, "results": results, "baseline": baseline,
            "attacks": sorted((ATTACKS / a.id).glob("*.py")), "reference": reference,
            "memory": memory_used, "scratch": scratch}


@needs_root_and_unshare
def test_batch_survives_and_every_submission_has_a_result(attacked):
    proc = attacked["proc"]
    assert proc.returncode == 0, proc.stderr[-3000:]
    expected = {p.stem for p in attacked["attacks"]} | {"honest_full", "honest_partial"}
    assert set(attacked["results"]) == expected
    rows = (attacked["out"] / "grades.csv").read_text().splitlines()
    assert rows[0].startswith("submission,total,max_total,causal_mask,")
    assert {r.split(",")[0] for r in rows[1:]} == expected


@needs_root_and_unshare
def test_no_process_of_the_batch_is_left(attacked):
    assert attacked["proc"].stdout.strip().splitlines()[-1] == "0", attacked["proc"].stdout


@needs_root_and_unshare
def test_no_worker_folder_is_left(attacked):
    """Every worker's folder is gone, even those of workers the grader stopped
    talking to (a reply bomb, then sleep)."""
    assert list(attacked["scratch"].iterdir()) == []


@needs_root_and_unshare
def test_the_batch_stays_within_its_memory_limit(attacked):
    """Under a memory limit for the whole batch, nothing is killed for memory
    and the batch ends normally (every result, grades.csv): reply bombs are
    refused unread, never parsed."""
    memory = attacked["memory"]
    if memory["peak"] is None:
        pytest.skip(f"no memory limit for the batch: {memory['reason']}")
    print(f"batch memory peak: {memory['peak'] / 2**20:.0f} MB of {BATCH_MEMORY / 2**20:.0f} MB")
    assert memory["oom_kills"] in (0, None), memory
    assert memory["peak"] <= BATCH_MEMORY
    assert attacked["proc"].returncode == 0 and (attacked["out"] / "grades.csv").exists()


@needs_root_and_unshare
def test_honest_submissions_get_exactly_their_own_scores(attacked):
    for name, alone in attacked["baseline"].items():
        got = attacked["results"][name]
        assert got["score"] == alone.score, name
        assert [t["score"] for t in got["tests"]] == [t.score for t in alone.tests], name
    assert attacked["baseline"]["honest_full"].score == attacked["a"].max_total


@needs_root_and_unshare
@pytest.mark.parametrize("attack", sorted(p.stem for p in (ATTACKS / "hw1_attention").glob("*.py")))
def test_attack_outcome(attacked, attack):
    a, result = attacked["a"], attacked["results"][attack]
    expect = _header(ATTACKS / a.id / f"{attack}.py")["expect"].split()
    per_question: dict[str, float] = {}
    for t in result["tests"]:
        per_question[t["number"]] = per_question.get(t["number"], 0) + t["score"]
    if expect[0] == "zero":
        assert result["score"] == 0, result
    elif expect[0] == "full":
        assert result["score"] == a.max_total, [t for t in result["tests"] if t["status"] == "failed"]
    elif expect[0] == "partial":
        q = expect[1]
        assert per_question[q] < a.config.max_points(q)
        assert all(per_question[o] == a.config.max_points(o) for o in a.questions if o != q), result
    else:
        assert expect[0] == "any"
    score = _header(ATTACKS / a.id / f"{attack}.py").get("score")
    if score is not None:
        assert result["score"] == float(score), result


@needs_root_and_unshare
def test_no_secret_reaches_any_output(attacked):
    secrets = [line.strip() for line in attacked["reference"].splitlines()
               if len(line.strip()) > 25]
    secrets += list(leaks.secret_lines())  # every assignment's reference, not only hw1's
    secrets += ["grading_config", "test_values_without_mask", "0.2442"]
    for name, result in attacked["results"].items():
        text = json.dumps(result)
        leaked = [s for s in secrets if s in text]
        assert not leaked, f"{name}: {leaked[:3]}"


@needs_root_and_unshare
def test_forged_results_were_not_kept(attacked):
    for name, result in attacked["results"].items():
        assert result["score"] <= attacked["a"].max_total
        assert len(result["tests"]) == len(attacked["a"].cases), name


@needs_root_and_unshare
def test_where_namespaces_are_refused_workers_still_get_their_own_uid(monkeypatch, tmp_path):
    """Some containers refuse unshare: grading falls back to a uid per worker,
    and a detached process is still swept when its submission is done."""
    from autograder.engine.workers import Template, WorkerDied
    real_spawn = Template._spawn

    def refuse_namespaces(self):
        if self.sandbox == "namespaces":
            raise WorkerDied("the worker could not start")
        return real_spawn(self)
    monkeypatch.setattr(Template, "_spawn", refuse_namespaces)
    a = assignment_mod.load("hw1_attention")
    subs = tmp_path / "subs"
    subs.mkdir()
    write_notebook(subs / "honest.ipynb", [inspect.getsource(a.reference)])
    write_notebook(subs / "detached_non_root.ipynb", [
        "import os\nassert os.getuid() != 0\n"
        "if os.fork() == 0:\n    os.setsid()\n    import time\n    time.sleep(300)\n",
        inspect.getsource(a.reference)])
    results = grade(a.id, subs, tmp_path / "out")
    assert results["honest"].score == a.max_total
    assert results["detached_non_root"].score == a.max_total  # cell 1 ran: it is not root
    base = 200_000 + (os.getpid() % 10_000) * 1_000  # this process's worker uids
    deadline = time.monotonic() + 10
    while _live_processes(range(base, base + 1_000)) and time.monotonic() < deadline:
        time.sleep(0.1)  # SIGKILLed processes take a moment to go
    assert not _live_processes(range(base, base + 1_000))


def _live_processes(uids: range) -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/status") as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
        except OSError:
            continue
        if int(status["Uid"].split()[0]) in uids and not status["State"].strip().startswith("Z"):
            found.append(pid)
    return found


def test_the_sandbox_keeps_python_importable(grade_cells):
    """Modules the template did not preload still import in the worker, wherever
    the virtual environment lives (CI clones into /tmp): the sandbox hides secrets,
    not the interpreter."""
    a = assignment_mod.load("hw1_attention")
    imports = ("import fractions, decimal, statistics, secrets, sqlite3\n"
               "import torch.utils._device, torch.distributions\n"
               "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
               "plt.plot([1, 2]); plt.savefig('plot.png')\n")
    results = grade_cells(a.id, {"imports": [imports, inspect.getsource(a.reference)]})
    assert results["imports"].notes == []
    assert results["imports"].score == a.max_total
