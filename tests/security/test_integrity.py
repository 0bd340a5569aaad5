"""Can a submission raise its own score, read what is hidden, or harm another?

Each file in tests/security/attacks/<assignment>/ is one attack, a small submission
whose first lines declare the expected outcome:

    # expect: zero | full | partial <question> | any
    # with: reference        (the reference solution is the notebook's first cell)
    # score: 13              (optional: the exact total it must get)

The whole corpus is graded in ONE batch with two jobs and a roster, next to honest
submissions (then one export submission is regraded alone, by its path), inside a
private PID namespace (so a defence that fails cannot take this machine's other
processes with it), once per sandbox mode this
machine can give (tests/security/sandbox_modes.py: as root, as an unprivileged user,
as root in a Docker-like container), and then, in each:
every submission has a result; each attack gets its declared outcome; the
honest submissions get exactly the scores they get when graded alone; no
output contains secrets; nothing of the batch is left (processes, also 3 s
after the grader exited; SysV IPC objects; files in the shared temporary
folders; worker folders) and grades.csv is not rewritten after the grader
exited. Where the machine allows it, each batch runs under a memory limit (a
cgroup made for it), which the grader must never reach (reply bombs included).
"""
from __future__ import annotations

import csv
import inspect
import json
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from autograder import paths
from autograder.engine import assignment as assignment_mod
from autograder.engine import resume
from autograder.engine.isolation import uidpool
from autograder.engine.results import GRADING_OUTPUTS
from autograder.report import run as report_run
from autograder.kernel import modes
from tests.security import bombs, leaks, sandbox_modes
from tests.security.cgroup import MemoryLimit
from tests.conftest import grade, write_notebook
from tests.assignments import corpus_tools

# Heavy (grades the attack corpus in every sandbox mode): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

ATTACKS = Path(__file__).parent / "attacks"
CORPUS = corpus_tools.CORPUS
LIMITS = ["notebook_seconds=6", "call_seconds=3", "restarts=2"]
# The whole batch (grader, template, two workers at a time, page cache) stays
# below this; a 128 MB reply bomb parsed as JSON takes the grader beyond it.
BATCH_MEMORY = 2048 * 2**20
LEFTOVER = ("import os; me = {1, os.getpid(), os.getppid()}; print(sum(1 for p in "
            "os.listdir('/proc') if p.isdigit() and int(p) not in me and "
            "open(f'/proc/{p}/stat').read().rsplit(')', 1)[1].split()[0] != 'Z'))")
WORKER_UIDS = range(uidpool.BASE, uidpool.BASE + uidpool.SPAN * (1 + uidpool.NAMESPACE_RANGES))
"""Every PID namespace's range: each batch runs in a PID namespace of its own."""
OPEN_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
"""The folders of this machine (Debian's) open to every user's writes, listed here by
hand: the grader finds them itself (kernel/writable.py)."""


def _header(path: Path) -> dict:
    head = {}
    for line in path.read_text().splitlines()[:3]:
        m = re.match(r"#\s*(expect|with|score):\s*(.+)", line)
        if m:
            head[m.group(1)] = m.group(2).strip()
    return head


DUE = "2026-03-01T23:59-08:00"
EXPORT_YML = """\
submission_1001:
  :submitters:
  - :name: Ada L
    :sid: s2001
    :email: ada@uni.edu
  :created_at: 2026-03-01 10:05:00.000000000 -08:00
submission_1002:
  :submitters:
  - :name: Bob M
    :sid: s2002
    :email: bob@uni.edu
  :created_at: 2026-03-03 10:05:00.000000000 -08:00
submission_1003:
  :submitters:
  - :name: Mallory Q
    :sid: s2003
    :email: bob@evil.example
  :created_at: 2026-03-01 10:05:00.000000000 -08:00
"""
"""Mallory set her Gradescope e-mail to Bob's login at another domain."""
FORGED_METADATA = {"users": [{"name": "Ada L", "sid": "s2001", "email": "ada@uni.edu"}],
                   "created_at": "2026-02-28T10:00:00-08:00",
                   "assignment": {"due_date": "2026-04-01T00:00:00-08:00"}}
"""What Bob uploads inside his export folder: he claims to be Ada, and on time."""
FORGED_EXPORT = """\
hw1_attention.ipynb:
  :submitters:
  - :name: Ada L
    :sid: s2001
    :email: ada@uni.edu
  :created_at: 2026-02-28 10:05:00.000000000 -08:00
"""
"""The same claim as an export's file, uploaded by Bob beside his notebook: read,
before, when his submission was regraded by its path."""
ROSTER = """Student,ID,SIS User ID,SIS Login ID,Section
Points Possible,,,,
Ada L,1,s2001,ada,A
Bob M,2,s2002,bob,A
Mallory Q,3,s2003,mallory,B
"""
DEEP = 980
"""JSON nesting that parses where grading reads a notebook and, a few frames
deeper, failed where the reports read it again (RecursionError)."""
OUTPUT_CAPS = {"results.json": 2**20, "feedback.md": 2**20, "feedback.html": 2 * 2**20,
               "grades.csv": 64 * 2**10, "gradebook.csv": 256 * 2**10, "canvas.csv": 64 * 2**10,
               "report.html": 4 * 2**20, "similarity.html": 8 * 2**20,
               "feedback_for_canvas.zip": 4 * 2**20}
"""The most grading this corpus may write per file (the 4 MB class name once
made a 16 MB feedback.md): every student text is capped where it enters
(engine/intake/untrusted.py), and results.json and feedback cap each test's text."""


def _hostile_entries(subs: Path, reference: str) -> dict[str, str]:
    """Entry-level attacks, written into `subs` beside the corpus:
    {submission id they must get: "full" or "zero"}."""
    solution = paths.EXAMPLES / "hw1_attention" / "full_solution.ipynb"
    for name in ("grades.csv.ipynb", "Report.HTML.ipynb", "eve$\\frac{$.ipynb"):
        write_notebook(subs / name, [reference])  # honest work under names that clash
    (subs / "grades.csv").mkdir()
    write_notebook(subs / "grades.csv" / "hw1_attention.ipynb", [reference])
    (subs / "linked_solution").mkdir()
    (subs / "linked_solution" / "hw1_attention.ipynb").symlink_to(solution)
    (subs / "linked_top.ipynb").symlink_to(solution)
    (subs / "dev_zero").mkdir()
    (subs / "dev_zero" / "hw1_attention.ipynb").symlink_to("/dev/zero")
    os.mkfifo(subs / "fifo.ipynb")
    (subs / "fifo_inside").mkdir()
    os.mkfifo(subs / "fifo_inside" / "hw1_attention.ipynb")
    (subs / "submission_metadata.yml").write_text(EXPORT_YML)  # as in a Gradescope export
    for folder in ("submission_1001", "submission_1002", "submission_1003"):
        (subs / folder).mkdir()
    write_notebook(subs / "submission_1001" / "hw1_attention.ipynb", [reference])
    (subs / "submission_1002" / "hw1_attention.ipynb").write_bytes(
        (paths.ASSIGNMENTS / "hw1_attention" / "hw1_attention.ipynb").read_bytes())
    (subs / "submission_1002" / "submission_metadata.json").write_text(json.dumps(FORGED_METADATA))
    (subs / "submission_1002" / "submission_metadata.yml").write_text(FORGED_EXPORT)
    write_notebook(subs / "submission_1003" / "hw1_attention.ipynb", [reference])
    deep = write_notebook(subs / "deep_metadata.ipynb", [reference])  # honest work, odd JSON
    deep.write_text(deep.read_text().replace('"metadata": {}', '"metadata": {"x": %s%s}' % (
        "[" * DEEP, "]" * DEEP), 1))
    write_notebook(subs / "hoppergrace_LATE_1002_50003_hw1\n_attention.ipynb", [reference])  # Canvas's
    text_version = json.loads(write_notebook(subs / "nbformat_text.ipynb", [reference]).read_text())
    (subs / "nbformat_text.ipynb").write_text(json.dumps({**text_version, "nbformat": "4"}))
    # work on the grader's side: 20 MB that parse to 500 MB, a zip of 300,000 members
    # (both with the full solution), 400 cells after the solution (all sent ahead)
    bombs.values_bomb(subs / "metadata_of_lists.ipynb", [reference], 6_900_000)
    bombs.member_bomb(subs / "zip_of_members.zip", solution.read_bytes(), 300_000)
    write_notebook(subs / "many_cells.ipynb", [reference] + ["x = 1"] * 400)
    return {"grades.csv.ipynb": "full", "grades.csv_2": "full", "Report.HTML.ipynb": "full",
            "eve$_frac{$": "full", "submission_1001": "full", "submission_1002": "zero",
            "submission_1003": "full", "deep_metadata": "full", "hoppergrace_1002": "full",
            "metadata_of_lists": "zero", "zip_of_members": "zero", "many_cells": "full",
            **dict.fromkeys(["linked_solution", "linked_top", "dev_zero", "fifo", "fifo_inside",
                             "nbformat_text"], "zero")}


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
                    "DISK_MB": str(a.config.limits.disk_mb),
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
    entries = _hostile_entries(subs, reference)
    (root / "roster.csv").write_text(ROSTER)
    subs.chmod(0o700)  # other students' work: closed to the workers' uids (mode uid checks)
    scratch = root / "tmp"  # the grader's temporary folders (TMPDIR), to find leftovers
    scratch.mkdir()
    if mode == "user":
        user = sandbox_modes.grading_user()
        os.chown(subs, user.pw_uid, user.pw_gid)
        os.chown(scratch, user.pw_uid, user.pw_gid)
    secret = f"FAKE-SSH-KEY-{os.urandom(8).hex()}"
    ipc_before = _worker_ipc()
    python = sandbox_modes.python(mode)
    limits = " ".join(f"--limit {x}" for x in LIMITS)
    regrade = root / "regrade"  # Bob's submission alone, by its path, as an instructor would
    script = (f"{python} -m autograder grade {subs} --assignment {a.id} --out {out} "
              f"--jobs 2 --due {DUE} --roster {root / 'roster.csv'} {limits}; "
              f"{python} -m autograder grade {subs}/submission_1002/hw1_attention.ipynb "
              f"--assignment {a.id} --out {regrade} --due {DUE} --quiet {limits} "
              f"2> {root / 'regrade.err'}; "
              f"sha256sum {out}/grades.csv; sleep 3; {python} -c \"{LEFTOVER}\"; "
              f"sha256sum {out}/grades.csv")
    with MemoryLimit(BATCH_MEMORY) as memory:
        batch = shlex.join(sandbox_modes.command(mode, script, secret, root))
        proc = subprocess.run(["sh", "-c", memory.wrap(batch)], capture_output=True, text=True,
                              timeout=600, env=dict(os.environ, TMPDIR=str(scratch)))
        memory_used = {"peak": memory.peak(), "oom_kills": memory.oom_kills(),
                       "reason": memory.reason}
    listener.close()
    results = {p.parent.name: json.loads(p.read_text()) for p in out.glob("*/results.json")}
    return {"a": a, "proc": proc, "out": out, "results": results, "baseline": baseline,
            "attacks": sorted((ATTACKS / a.id).glob("*.py")), "reference": reference,
            "mode": mode, "secret": secret, "ipc_before": ipc_before, "entries": entries,
            "memory": memory_used, "scratch": scratch, "regrade": regrade}


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
    assert set(attacked["results"]) == expected | set(attacked["entries"])
    rows = (attacked["out"] / "grades.csv").read_text().splitlines()
    assert rows[0].startswith("submission,total,max_total,causal_mask,")
    assert {r.split(",")[0] for r in rows[1:]} == expected | set(attacked["entries"])


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
    left = [str(p) for folder in OPEN_FOLDERS for p in Path(folder).glob("autograder-leftover-*")]
    left += [str(p) for folder in OPEN_FOLDERS for p in Path(folder).iterdir()
             if p.lstat().st_uid in WORKER_UIDS]
    assert not left
    import ctypes
    rt = ctypes.CDLL("librt.so.1", use_errno=True)
    assert rt.mq_open(b"/autograder-leftover-mq", os.O_RDONLY) == -1


def test_no_worker_folder_is_left(attacked):
    """Every worker's folder is gone, even those of workers the grader stopped
    talking to (a reply bomb, then sleep)."""
    left = {p.name: (p.lstat().st_uid, sorted(c.name for c in p.rglob("*"))[:20] if p.is_dir()
                     else p.lstat().st_size) for p in attacked["scratch"].iterdir()}
    assert left == {}, f"left (owner uid, what it holds): {left}"


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


def test_honest_submissions_get_exactly_their_own_scores(attacked):
    for name, alone in attacked["baseline"].items():
        got = attacked["results"][name]
        assert got["score"] == alone.score, name
        assert [t["score"] for t in got["tests"]] == [t.score for t in alone.tests], name
    assert attacked["baseline"]["honest_full"].score == attacked["a"].max_total


@pytest.mark.parametrize("attack", sorted(p.stem for p in (ATTACKS / "hw1_attention").glob("*.py")))
def test_attack_outcome(attacked, attack):
    judge_attack(attacked["a"], attacked["results"][attack], ATTACKS / attacked["a"].id / f"{attack}.py")


def judge_attack(a, result: dict, path: Path) -> None:
    """The attack's result (results.json's) is what its header declares: `expect: zero`,
    `full`, `partial Q` (points lost on Q only) or `any`; and `score: S` where given."""
    head = _header(path)
    expect = head["expect"].split()
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
    if head.get("score") is not None:
        assert result["score"] == float(head["score"]), result


def test_all_of_a_submission_s_files_together_are_bounded(attacked):
    """fill_disk writes eight files of 63 MB (each under the per-file limit):
    where workers write to the machine's disk, its waiter stops it past
    disk_mb and the student is told (in uid mode, also when they are in
    /run/lock: write_run_lock); elsewhere its own tmpfs of disk_mb is full
    (its expected outcome, in test_attack_outcome, says it never got further)."""
    mode = modes.BY_NAME[sandbox_modes.MODES[attacked["mode"]]]
    if not mode.meters_disk:
        pytest.skip(f"{mode.name}: a tmpfs of disk_mb holds the worker's files")
    assert "its files took more disk than a submission may" in \
        attacked["results"]["fill_disk"]["output"]
    if not mode.landlock:  # Landlock refuses writes to /run/lock; file permissions do not
        assert "its files took more disk than a submission may" in \
            attacked["results"]["write_run_lock"]["output"]


def test_no_secret_reaches_any_output(attacked):
    secrets = [line.strip() for line in attacked["reference"].splitlines()
               if len(line.strip()) > 25]
    secrets += list(leaks.secret_lines())  # every assignment's reference, not only hw1's
    secrets += ["grading_config", "test_values_without_mask", "0.2442", attacked["secret"]]
    if sandbox_modes.MODES[attacked["mode"]] != "uid":  # uid's declared lack: /proc is open,
        secrets += ["--assignment hw1_attention --out", str(attacked["out"]),  # command lines too
                    str(attacked["out"].parent / "subs")]
    for name, result in attacked["results"].items():
        text = json.dumps(result)
        leaked = [s for s in secrets if s in text]
        assert not leaked, f"{name}: {leaked[:3]}"


def test_forged_results_were_not_kept(attacked):
    for name, result in attacked["results"].items():
        assert result["score"] <= attacked["a"].max_total
        assert len(result["tests"]) == len(attacked["a"].cases), name


def test_hostile_entries_get_safe_ids_and_only_their_own_work(attacked):
    """Do names that clash with outputs get another id, and links, pipes and
    devices no points (the linked full solution included)?"""
    results, a = attacked["results"], attacked["a"]
    for sid, outcome in attacked["entries"].items():
        assert results[sid]["score"] == (a.max_total if outcome == "full" else 0), sid
    assert "name of a file the grader writes" in results["grades.csv.ipynb"]["output"]
    for sid in ("linked_solution", "linked_top", "dev_zero"):
        assert "symbolic link; links are not followed" in results[sid]["output"], sid
    for sid in ("fifo", "fifo_inside"):
        assert "not a regular file" in results[sid]["output"], sid


def test_work_a_submission_causes_is_bounded_before_it_starts(attacked):
    """A notebook of 6.9 million empty lists (20 MB) and a zip of 300,000 members
    are refused unread, each with a message for the student (their full solutions
    get nothing); 400 one-line cells after the solution are all run (the cells
    sent ahead of their replies never fill the socket)."""
    results = attacked["results"]
    assert "more than 500,000 values in its outputs" in results["metadata_of_lists"]["output"]
    assert "the zip holds more than 10,000 files" in results["zip_of_members"]["output"]
    assert results["many_cells"]["score"] == attacked["a"].max_total


def test_every_report_is_written_and_no_output_exceeds_its_cap(attacked):
    out = attacked["out"]
    top = {p.name for p in out.iterdir() if p.is_file()}
    assert {"grades.csv", "gradebook.csv", "canvas.csv", "report.html", "similarity.html"} \
        <= top <= {*GRADING_OUTPUTS, *report_run.reserved_names("hw1_attention")}
    assert "could not be written" not in attacked["proc"].stdout  # no report, no feedback
    for sid in attacked["results"]:
        assert (out / sid / "feedback.md").is_file() and (out / sid / "feedback.html").is_file(), sid
    sizes = {p: p.stat().st_size for p in out.rglob("*") if p.is_file()}
    capped = lambda p: "results.json" if p.parent.name == resume.FOLDER else p.name  # its record
    assert all(size <= OUTPUT_CAPS[capped(p)] for p, size in sizes.items()), \
        sorted(sizes.items(), key=lambda kv: -kv[1])[:3]
    report = (out / "report.html").read_text()  # its runtime plot labels eve$_frac{$
    assert report.count('<img class="plot"') == 4 and "could not be drawn" not in report


def test_who_and_when_come_from_the_export_not_from_the_upload(attacked):
    """Bob's uploaded submission_metadata.json says he is Ada and on time: ignored. Mallory's
    Gradescope e-mail is bob@evil.example: Bob's roster row keeps Bob's own score. A
    Canvas file whose original name holds a newline is still its student's, and late."""
    out = attacked["out"]
    score = "Homework 1: attention and masks"
    with open(out / "canvas.csv", newline="") as f:
        canvas = {r["Student"]: r for r in csv.DictReader(f)}
    assert canvas["Bob M"]["SIS User ID"] == "s2002" and float(canvas["Bob M"][score]) == 0
    assert float(canvas["Ada L"][score]) == 18 and float(canvas["Mallory Q"][score]) == 18
    with open(out / "gradebook.csv", newline="") as f:
        book = {r["submission"]: r for r in csv.DictReader(f) if r["submission"]}
    assert book["submission_1002"]["status"] == "late"
    assert book["submission_1002"]["submitted"] == "2026-03-03T10:05:00-08:00"
    assert book["submission_1001"]["status"] == "graded"
    assert book["submission_1003"]["student"] == "Mallory Q"
    # a newline in the name the student gave the file: still Canvas's user 1002, still LATE
    assert (book["hoppergrace_1002"]["status"], book["hoppergrace_1002"]["late_by"]) == (
        "late", "recorded late by Canvas")
    assert "ignored submission_metadata.json" in attacked["proc"].stderr


def test_a_submission_regraded_by_its_path_is_still_the_exports(attacked):
    """Bob's notebook graded alone: who and when still come from the export above it,
    not from the submission_metadata.yml he uploaded beside it."""
    regrade = attacked["regrade"]
    with open(regrade / "gradebook.csv", newline="") as f:
        (row,) = list(csv.DictReader(f))
    assert (row["student"], row["status"]) == ("Bob M", "late"), row
    assert row["submitted"] == "2026-03-03T10:05:00-08:00"
    with open(regrade / "canvas.csv", newline="") as f:
        _, ids = list(csv.DictReader(f))  # "Points Possible", then Bob
    assert (ids["SIS User ID"], ids["SIS Login ID"]) == ("s2002", "bob@uni.edu")


def test_odd_notebooks_cost_no_report(attacked):
    """JSON nested DEEP levels deep grades as usual and its answers are compared like
    anyone's (similarity.html takes the answers of every graded submission); a notebook
    whose nbformat is text is refused with a message."""
    out, results = attacked["out"], attacked["results"]
    graded = sum(not r["tests"][0]["output"].startswith("not graded: ") for r in results.values())
    similarity = (out / "similarity.html").read_text()
    assert f"The answers of {graded} graded submissions" in similarity
    assert "could not be taken" not in similarity
    assert "nbformat field is not a version number" in results["nbformat_text"]["output"]


def test_nothing_a_student_wrote_reaches_the_terminal_raw(attacked):
    """The printed table and the warnings hold no escape sequence or control character."""
    proc = attacked["proc"]
    assert "terminal_escapes" in proc.stdout  # the table was printed
    for stream in (proc.stdout, proc.stderr):
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", stream)


def test_the_sandbox_keeps_python_importable(grade_notebooks):
    """Modules the template did not preload still import in the worker, wherever
    the virtual environment lives (CI clones into /tmp): the sandbox hides secrets,
    not the interpreter."""
    a = assignment_mod.load("hw1_attention")
    imports = ("import fractions, decimal, statistics, secrets, sqlite3\n"
               "import torch.utils._device, torch.distributions\n"
               "import matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
               "plt.plot([1, 2]); plt.savefig('plot.png')\n")
    results = grade_notebooks(a.id, {"imports": [imports, inspect.getsource(a.reference)]})
    assert results["imports"].notes == []
    assert results["imports"].score == a.max_total
