"""Is the sandbox's mode table the one place modes are declared, and does the
wall of the modes without namespaces (file permissions, against stat() too)
get judged as the kernel judges it?"""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from autograder import paths
from autograder.engine.isolation import sandbox
from autograder.engine.config import Limits
from autograder.kernel import modes, writable
from autograder.worker import template
from tests.security.test_sandbox import run_cell, template as make_template

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="uids of their own need root (CI is)")


def test_every_mode_is_carried_out_and_every_need_is_checked():
    """Both sides read the table: the template knows every way to confine,
    the grader every need; no mode without a line that says what it gives."""
    for mode in (*modes.MODES, modes.NONE):
        assert mode.confine in template.CONFINE, mode.name
        assert set(mode.needs) <= set(sandbox.NEEDS), mode.name
        assert mode.gives and modes.BY_NAME[mode.name] is mode
    assert [m.name for m in modes.MODES] == ["namespaces", "userns", "landlock", "uid"]


def test_no_module_compares_mode_names():
    """A mode's name is compared nowhere but in the table's own lookups: what
    a mode does is read from its fields."""
    names = {m.name for m in (*modes.MODES, modes.NONE)} - {"none"}
    found = []
    for path in sorted(paths.PACKAGE.rglob("*.py")):
        if path.name == "modes.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare) and any(
                    isinstance(side, ast.Constant) and side.value in names
                    for side in (node.left, *node.comparators)):
                found.append(f"{path.relative_to(paths.ROOT)}:{node.lineno}")
    assert not found


def test_the_uid_mode_says_what_it_lacks():
    line = sandbox.Sandbox("uid", object(), None).line(Limits())
    assert line.startswith("sandbox: uid (") and "file permissions" in line
    assert "lacks: the worker can read whatever every user" in line


AUDIT = """
import json, sys
sys.path.insert(0, {repo!r})
from autograder.worker import permissions
print(json.dumps(permissions.open_to(250123, {secret!r}, {read_only!r})))
"""


def in_child(code: str):
    """What `code`, run in a child process (it gives up root's real ids), prints as JSON."""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def audit(secret: list[Path], read_only: list[Path] = ()) -> str | None:
    """permissions.open_to as a worker's uid."""
    return in_child(AUDIT.format(repo=str(paths.ROOT), secret=[str(p) for p in secret],
                                 read_only=[str(p) for p in read_only]))


@pytest.fixture
def tree():
    """A secret folder on a way every user can pass through."""
    top = Path(tempfile.mkdtemp(prefix="autograder-audit-"))
    top.chmod(0o755)
    secret = top / "secret"
    (secret / "hw1").mkdir(parents=True)
    (secret / "hw1" / "reference.py").write_text("def causal_mask(n): ...\n")
    yield top, secret
    subprocess.run(["rm", "-rf", str(top)])


@root_only
def test_file_permissions_are_judged_as_the_workers_uid(tree):
    """Closed at the top, or behind a folder the uid cannot pass: nothing below
    counts. A secret folder it can pass through but not list (0711) is open:
    stat() of the names inside answers (existence, size, dates), and stat is
    what Landlock does not govern. A folder that lists, a file open to others,
    a writable Python path: each is found and named."""
    top, secret = tree
    subprocess.run(["chmod", "-R", "go-rwx", str(secret)], check=True)
    (secret / "hw1" / "reference.py").chmod(0o644)  # open, but behind a closed folder
    assert audit([secret]) is None
    secret.chmod(0o711)
    assert audit([secret]) == f"{secret} can be passed through"
    secret.chmod(0o755)
    assert audit([secret]) == f"{secret} is readable"  # its names are a leak too
    top.chmod(0o700)  # an ancestor closes it all
    assert audit([secret, secret / "hw1" / "reference.py"]) is None
    top.chmod(0o755)
    (secret / "hw1").chmod(0o711)
    assert audit([secret / "hw1" / "reference.py"]) == f"{secret / 'hw1' / 'reference.py'} is readable"
    secret.chmod(0o700)
    (secret / "link").symlink_to("/etc/passwd")  # judged where it points, if that is secret
    assert audit([secret, secret / "link", top / "missing"]) is None
    python = top / "venv"
    python.mkdir(mode=0o755)
    assert audit([secret], [python]) is None
    python.chmod(0o777)
    assert audit([secret], [python]) == f"{python} is writable"


@root_only
def test_the_uid_mode_refuses_an_open_secret_and_takes_a_closed_one(tree, monkeypatch):
    """Its need is checked with a real worker uid, through the template: a
    secret folder other users can read refuses the mode, naming it and what
    to do; closed, the need holds."""
    top, secret = tree
    t = make_template(monkeypatch, "best")
    try:
        why = sandbox._secrets_closed(sandbox.Needs([str(secret)], t.orders.audit))
        assert why is not None and f"{secret} is readable by the workers' uids" in why
        assert "chmod -R o-rwx" in why
        subprocess.run(["chmod", "-R", "go-rwx", str(secret)], check=True)
        assert sandbox._secrets_closed(sandbox.Needs([str(secret)], t.orders.audit)) is None
    finally:
        t.close()


SCANNER = 7_000_123
"""The uid the walk's tests scan as: outside every range of the workers' pools, since
what it owns in /tmp while they run is no worker's leftover (test_integrity looks)."""
SCAN = """
import json, os, sys
sys.path.insert(0, {repo!r})
from autograder.kernel import writable
os.setgroups([])
os.setresgid({uid}, 0, 0)
os.setresuid({uid}, 0, 0)
print(json.dumps(writable.find({starts!r}, {seconds!r}, {owners!r})))
"""


def scan(starts: list[Path] | None = None, seconds: float = writable.SECONDS,
         owners: tuple[int, int] | None = None) -> dict:
    """writable.find with SCANNER's real ids."""
    return in_child(SCAN.format(repo=str(paths.ROOT), uid=SCANNER, seconds=seconds,
                                owners=owners,
                                starts=None if starts is None else [str(p) for p in starts]))


@pytest.fixture
def own_top():
    """A folder only SCANNER may enter (its own, 0700): what is planted there is
    seen by no other uid, so no grader running beside this test finds it."""
    top = Path(tempfile.mkdtemp(prefix="autograder-scan-"))
    os.chown(top, SCANNER, SCANNER)
    yield top
    subprocess.run(["rm", "-rf", str(top)])


def test_the_walk_leaves_out_kernel_and_read_only_file_systems():
    mountinfo = "\n".join([
        "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw",
        "23 22 0:5 / /proc rw,nosuid - proc proc rw",
        "24 22 0:6 / /sys rw - sysfs sysfs rw",
        "25 22 0:7 / /run rw - tmpfs tmpfs rw,size=100k",
        "26 22 0:8 / /mnt/read\\040only ro - ext4 /dev/sdb1 rw",
        "27 22 0:9 / /mnt/my\\040data rw - ext4 /dev/sdc1 ro",
        "28 22 0:10 / /mnt/my\\040disk rw - xfs /dev/sdd1 rw",
        "29 24 0:11 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw",
        "not a mount line"])
    assert writable.mounts_to_walk(mountinfo) == ["/", "/mnt/my disk", "/run"]


@root_only
def test_every_place_a_uid_can_write_is_found_and_nothing_else(own_top):
    """Its own folder; folders open to it, also behind one it can pass through
    but not list; a file open to its writes; nothing behind a folder it cannot
    pass, nothing through a link, nothing closed to it."""
    top = own_top
    for name, mode in (("open", 0o777), ("closed", 0o700), ("closed/open", 0o777),
                       ("passable", 0o711), ("passable/sticky", 0o1777),
                       ("read_only", 0o755), ("read_only/below", 0o777)):
        (top / name).mkdir()
        (top / name).chmod(mode)
    for name, mode in (("notes.txt", 0o666), ("read_only/log.txt", 0o644),
                       ("closed/notes.txt", 0o666)):
        (top / name).write_text("x")
        (top / name).chmod(mode)
    (top / "link").symlink_to(top / "open")
    expected = {"folders": [str(top), str(top / "open"), str(top / "passable" / "sticky"),
                            str(top / "read_only" / "below")],
                "files": [str(top / "notes.txt")]}
    assert scan([top]) == expected
    # a folder another uid of the pool owns (a crashed grader's worker folder), closed
    # to this one: its uid's next worker writes there, so it is found with the pool's range
    (top / "left" / "inside").mkdir(parents=True)
    for path in (top / "left", top / "left" / "inside"):
        os.chown(path, SCANNER + 1, SCANNER + 1)
        path.chmod(0o700)
    assert scan([top]) == expected
    assert scan([top], owners=(SCANNER + 1, SCANNER + 2))["folders"] == sorted(
        expected["folders"] + [str(top / "left")])


@root_only
def test_the_whole_machine_is_walked_and_a_walk_that_fails_is_no_answer(own_top):
    """/run/lock (Debian's, open to every user) is found with /tmp; a walk out of
    time, or finding more than MAX_PLACES places, is an error, never a short list."""
    found = scan()
    open_here = [f for f in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
                 if os.path.isdir(f) and os.stat(f).st_mode & 0o002]
    assert "/tmp" in open_here and set(open_here) <= set(found["folders"]), found
    assert "took more than" in scan(seconds=0.01)["error"]
    for n in range(writable.MAX_PLACES):
        (own_top / str(n)).mkdir()
        (own_top / str(n)).chmod(0o777)
    assert f"more than {writable.MAX_PLACES} places" in scan([own_top])["error"]


def test_a_file_open_to_the_workers_writes_refuses_the_uid_mode():
    """Found by the walk, it is named with what to do; nothing is swept then.
    A walk that failed refuses the mode too; one that found folders alone
    hands them to the sweep."""
    box = sandbox.Sandbox("uid", None, None)
    needs = sandbox.Needs([], scan=lambda: {"folders": ["/tmp"], "files": ["/srv/notes.txt"]},
                          sandbox=box)
    why = sandbox._writes_swept(needs)
    assert "/srv/notes.txt can be written by the workers' uids" in why and "chmod o-w" in why
    assert box.shared == ()
    needs.scan = lambda: {"error": "find could not be run (No such file or directory)"}
    assert "could not be found: find could not be run" in sandbox._writes_swept(needs)
    needs.scan = lambda: {"folders": ["/tmp", "/run/lock"], "files": []}
    assert sandbox._writes_swept(needs) is None and box.shared == ("/tmp", "/run/lock")


@root_only
def test_the_uid_mode_sweeps_every_folder_open_to_the_workers(monkeypatch):
    """Its need walks the machine as a real worker uid, through the template:
    every open folder (Debian's /run/lock among them) is what the sweep and
    the disk meter then cover."""
    t = make_template(monkeypatch, "best")
    try:
        box = sandbox.Sandbox("uid", None, None)
        assert sandbox._writes_swept(sandbox.Needs([], scan=t.orders.scan, sandbox=box)) is None
        assert "/tmp" in box.shared
        assert "/run/lock" in box.shared or not os.stat("/run/lock").st_mode & 0o002
    finally:
        t.close()


def test_the_grader_s_own_source_folder_is_not_a_python_path_workers_need(monkeypatch):
    """Run as Gradescope runs it (cwd /autograder/source, root-only, on
    sys.path), the needs are judged without the grader's source folder:
    workers are forked after the imports and never read it."""
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "source"
        (source / "autograder").mkdir(parents=True)
        source.chmod(0o700)
        monkeypatch.setattr(sys, "path", [str(source), *sys.path])
        needs = sandbox.Needs([str(source / "autograder")])
        assert str(source) not in sandbox.allowlist.python_paths(needs.hide)
        why = sandbox._python_open(needs)
        assert why is None or str(source) not in why


@root_only
def test_workers_go_first_when_memory_runs_out(monkeypatch):
    """The kernel's OOM killer takes a worker (score 1000) before the template
    (500), and both before the grader (0): a submission beyond the memory of
    the machine or container loses its own worker, never the results."""
    t = make_template(monkeypatch, "best")
    try:
        conn = t.spawn()
        report = run_cell(conn, "print(open('/proc/self/oom_score_adj').read())")
        assert report["output"].strip() == "1000", report
        assert Path(f"/proc/{t.proc.pid}/oom_score_adj").read_text().strip() == "500"
        assert Path("/proc/self/oom_score_adj").read_text().strip() == "0"
        conn.kill()
    finally:
        t.close()
