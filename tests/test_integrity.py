"""Can a submission raise its own score, read what is hidden, or harm another?

Each file in tests/attacks/<assignment>/ is one attack, a small submission
whose first lines declare the expected outcome:

    # expect: zero | full | partial <question> | any
    # with: reference        (the reference solution is the notebook's first cell)

The whole corpus is graded in ONE batch with two jobs, next to honest
submissions, inside a private PID namespace (so a defence that fails cannot
take this machine's other processes with it), once per sandbox mode this
machine can give (tests/sandbox_modes.py: as root, as an unprivileged user,
as root in a Docker-like container), and then, in each:
every submission has a result; each attack gets its declared outcome; the
honest submissions get exactly the scores they get when graded alone; no
output contains secrets; nothing of the batch is left (processes, also 3 s
after the grader exited; SysV IPC objects; files in the shared temporary
folders) and grades.csv is not rewritten after the grader exited.
"""
from __future__ import annotations

import inspect
import json
import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.engine import assignment as assignment_mod
from tests import sandbox_modes
from tests.conftest import grade, write_notebook

ATTACKS = Path(__file__).parent / "attacks"
CORPUS = Path(__file__).parent / "corpus"
LIMITS = ["notebook_seconds=6", "call_seconds=3", "restarts=2"]
LEFTOVER = ("import os; me = {1, os.getpid(), os.getppid()}; print(sum(1 for p in "
            "os.listdir('/proc') if p.isdigit() and int(p) not in me and "
            "open(f'/proc/{p}/stat').read().rsplit(')', 1)[1].split()[0] != 'Z'))")
WORKER_UIDS = range(200_000, 300_000)
SHARED_TEMP = ("/tmp", "/var/tmp", "/dev/shm")


def _header(path: Path) -> dict:
    head = {}
    for line in path.read_text().splitlines()[:3]:
        m = re.match(r"#\s*(expect|with):\s*(.+)", line)
        if m:
            head[m.group(1)] = m.group(2).strip()
    return head


@pytest.fixture(scope="module", params=list(sandbox_modes.MODES))
def attacked(request, tmp_path_factory):
    """Grades every attack plus honest submissions in one sandbox mode; returns
    what the tests need."""
    mode = request.param
    why = sandbox_modes.unavailable(mode)
    if why:
        pytest.skip(why)
    root = sandbox_modes.workdir(mode)
    request.addfinalizer(lambda: shutil.rmtree(root, ignore_errors=True))
    subs = root / "subs"
    subs.mkdir()
    out = root / "out"
    a = assignment_mod.load("hw1_attention")
    reference = inspect.getsource(a.reference)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    placeholders = {"PORT": str(port), "MEMORY_MB": str(a.config.limits.memory_mb),
                    "OUT_GRADES": str(out / "grades.csv")}
    for path in sorted((ATTACKS / a.id).glob("*.py")):
        head = _header(path)
        source = re.sub("|".join(placeholders), lambda m: placeholders[m.group()], path.read_text())
        cells = [reference, source] if head.get("with") == "reference" else [source]
        write_notebook(subs / f"{path.stem}.ipynb", cells)
    honest = {"honest_full": [reference],
              "honest_partial": [reference, (CORPUS / a.id / "buggy" / "sdpa_no_scaling.py").read_text()]}
    alone = tmp_path_factory.mktemp("alone")
    for name, cells in honest.items():
        write_notebook(subs / f"{name}.ipynb", cells)
        write_notebook(alone / f"{name}.ipynb", cells)
    baseline = grade(a.id, alone, tmp_path_factory.mktemp("alone-out"))
    if mode == "user":
        user = sandbox_modes.grading_user()
        os.chown(subs, user.pw_uid, user.pw_gid)
    secret = f"FAKE-SSH-KEY-{os.urandom(8).hex()}"
    ipc_before = _worker_ipc()
    script = (f"{sys.executable} -m autograder grade {subs} --assignment {a.id} --out {out} "
              f"--jobs 2 --quiet " + " ".join(f"--limit {x}" for x in LIMITS)
              + f"; sha256sum {out}/grades.csv; sleep 3; {sys.executable} -c \"{LEFTOVER}\"; "
              f"sha256sum {out}/grades.csv")
    proc = subprocess.run(sandbox_modes.command(mode, script, secret, root), capture_output=True,
                          text=True, timeout=600, cwd=sandbox_modes.REPO)
    listener.close()
    results = {p.parent.name: json.loads(p.read_text()) for p in out.glob("*/results.json")}
    return {"a": a, "proc": proc, "out": out, "results": results, "baseline": baseline,
            "attacks": sorted((ATTACKS / a.id).glob("*.py")), "reference": reference,
            "mode": mode, "secret": secret, "ipc_before": ipc_before}


def _worker_ipc() -> set[tuple[str, str]]:
    """SysV IPC objects of this machine owned by a worker uid or the test user."""
    found = set()
    for table in ("shm", "sem", "msg"):
        header, *rows = Path(f"/proc/sysvipc/{table}").read_text().splitlines()
        columns = header.split()
        for row in rows:
            values = dict(zip(columns, row.split()))
            uid = int(values.get("uid", -1))
            if uid in WORKER_UIDS or _is_test_user(uid):
                found.add((table, row.split()[1]))
    return found


def _is_test_user(uid: int) -> bool:
    try:
        return pwd.getpwuid(uid).pw_name == sandbox_modes.TEST_USER
    except KeyError:
        return False


def test_batch_survives_and_every_submission_has_a_result(attacked):
    proc = attacked["proc"]
    assert proc.returncode == 0, proc.stderr[-3000:]
    expected = {p.stem for p in attacked["attacks"]} | {"honest_full", "honest_partial"}
    assert set(attacked["results"]) == expected
    rows = (attacked["out"] / "grades.csv").read_text().splitlines()
    assert rows[0].startswith("submission,total,max_total,causal_mask,")
    assert {r.split(",")[0] for r in rows[1:]} == expected


def test_the_mode_is_reported_in_one_line(attacked):
    expected = sandbox_modes.MODES[attacked["mode"]]
    lines = [x for x in attacked["proc"].stderr.splitlines() if x.startswith("sandbox: ")]
    assert len(lines) == 1 and lines[0].startswith(f"sandbox: {expected} ("), lines


def test_no_process_of_the_batch_is_left(attacked):
    """Not even 3 s after the grader exited (detached processes included)."""
    *_, before, left, after = attacked["proc"].stdout.strip().splitlines()
    assert left == "0", attacked["proc"].stdout


def test_grades_csv_is_not_rewritten_after_the_grader_exits(attacked):
    *_, before, left, after = attacked["proc"].stdout.strip().splitlines()
    assert before == after and before.split()[1].endswith("grades.csv"), attacked["proc"].stdout
    assert "honest_full,18" in (attacked["out"] / "grades.csv").read_text()


def test_nothing_is_left_in_shared_folders_or_ipc(attacked):
    """No SysV IPC object, POSIX message queue or file of a worker survives."""
    assert _worker_ipc() - attacked["ipc_before"] == set()
    left = [str(p) for folder in SHARED_TEMP for p in Path(folder).glob("autograder-leftover-*")]
    left += [str(p) for folder in SHARED_TEMP for p in Path(folder).iterdir()
             if p.lstat().st_uid in WORKER_UIDS]
    assert not left
    import ctypes
    rt = ctypes.CDLL("librt.so.1", use_errno=True)
    assert rt.mq_open(b"/autograder-leftover-mq", os.O_RDONLY) == -1


def test_honest_submissions_get_exactly_their_own_scores(attacked):
    for name, alone in attacked["baseline"].items():
        got = attacked["results"][name]
        assert got["score"] == alone.score, name
        assert [t["score"] for t in got["tests"]] == [t.score for t in alone.tests], name
    assert attacked["baseline"]["honest_full"].score == attacked["a"].max_total


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


def test_no_secret_reaches_any_output(attacked):
    secrets = [line.strip() for line in attacked["reference"].splitlines()
               if len(line.strip()) > 25]
    secrets += ["grading_config", "test_values_without_mask", "KNOWN_GOOD_SDPA", "0.2442",
                attacked["secret"], "--assignment hw1_attention --out", str(attacked["out"])]
    for name, result in attacked["results"].items():
        text = json.dumps(result)
        leaked = [s for s in secrets if s in text]
        assert not leaked, f"{name}: {leaked[:3]}"


def test_forged_results_were_not_kept(attacked):
    for name, result in attacked["results"].items():
        assert result["score"] <= attacked["a"].max_total
        assert len(result["tests"]) == len(attacked["a"].cases), name


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
