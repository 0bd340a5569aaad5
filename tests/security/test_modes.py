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
from autograder.kernel import modes
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


def audit(secret: list[Path], read_only: list[Path] = ()) -> str | None:
    """permissions.open_to in a child process (it gives up root's real ids)."""
    code = AUDIT.format(repo=str(paths.ROOT), secret=[str(p) for p in secret],
                        read_only=[str(p) for p in read_only])
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


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
        why = sandbox._secrets_closed(sandbox.Needs([str(secret)], t._audit))
        assert why is not None and f"{secret} is readable by the workers' uids" in why
        assert "chmod -R o-rwx" in why
        subprocess.run(["chmod", "-R", "go-rwx", str(secret)], check=True)
        assert sandbox._secrets_closed(sandbox.Needs([str(secret)], t._audit)) is None
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
