"""Does the sandbox hold at the level of single workers?

Uid reuse (a pool of two uids and many starts beside one long-lived worker),
many workers starting at once, the memory budget of a submission (cgroup and
per-process fallback), the Landlock and seccomp confinement, the cgroup
layouts, and the refusal to grade where no sandbox works.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from autograder.engine import assignment as assignment_mod
from autograder.engine.isolation import cgroups, processes, sandbox
from autograder.engine.isolation.workers import Template, WorkerDied
from autograder.kernel import landlock, sweep
from tests.security import sandbox_modes
from tests.conftest import write_notebook

root_only = pytest.mark.skipif(os.geteuid() != 0, reason="uids of its own need root (CI is)")
DETACH = ("import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0:\n"
          "        time.sleep(300)\n    os._exit(0)\nprint(os.getuid())\n")
MEMORY_CHILDREN = (Path(__file__).parent / "attacks" / "hw1_attention" / "memory_children.py")


def run_cell(conn, source: str) -> dict:
    from autograder import protocol
    reply, buffers = conn.request({"op": "run_cell", "index": 1, "source": source}, timeout=60)
    return protocol.unpack(reply["ok"], buffers, lambda handle: None)


def template(monkeypatch, mode: str, **kwargs) -> Template:
    """A template in `mode`: the best this machine gives, or "none" (as root:
    a uid of its own per worker and nothing else, the weakest case for uids)."""
    if mode == "none":
        monkeypatch.setattr(sandbox.modes, "MODES", ())
    limits = kwargs.pop("limits", {})
    config = assignment_mod.load("hw1_attention", limits).config
    return Template(config, [], allow_unsafe=mode == "none", **kwargs)


@pytest.mark.heavy
@root_only
@pytest.mark.parametrize("mode", ["best", "none"])
def test_a_reused_uid_never_kills_a_live_worker(monkeypatch, mode):
    """With two uids for all, 30 workers that each leave a detached process
    come and go beside one long-lived worker: each sweep of the reused uid
    kills its detached process, and never the long-lived worker."""
    t = template(monkeypatch, mode, uid_pool_size=2)
    try:
        keeper = t.spawn()
        run_cell(keeper, "kept = 42")
        others = []
        for _ in range(30):
            conn = t.spawn()
            assert run_cell(conn, DETACH)["error"] is None
            others.append(conn.uid)
            conn.kill()
            assert not sweep.processes_of(conn.uid), "a detached process survived"
        assert set(others) == {others[0]} and others[0] != keeper.uid
        assert run_cell(keeper, "print(kept)")["output"].strip() == "42"
        keeper.kill()
    finally:
        t.close()


@root_only
@pytest.mark.parametrize("mode", ["best", "none"])
def test_many_workers_starting_at_once_all_start(monkeypatch, mode):
    """12 workers started at the same instant, three times over: every one
    starts, and no two live ones share a uid."""
    t = template(monkeypatch, mode)
    try:
        for _ in range(3):
            barrier, uids, errors = threading.Barrier(12), [], []

            def start():
                try:
                    barrier.wait()
                    conn = t.spawn()
                    uids.append(int(run_cell(conn, "import os; print(os.getuid())")["output"]))
                    barrier.wait()  # all alive at once
                    conn.kill()
                except Exception as exc:  # reported below
                    errors.append(repr(exc))
                    barrier.abort()
            threads = [threading.Thread(target=start) for _ in range(12)]
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            assert not errors and len(set(uids)) == 12, (errors, uids)
    finally:
        t.close()


@root_only
@pytest.mark.parametrize("use_cgroups", [True, False])
def test_a_submission_holds_at_most_its_memory_budget(monkeypatch, use_cgroups):
    """8 children of 200 MB each under memory_mb=256: at most one holds its
    200 MB at a time, whether a memory cgroup or the per-process fallback
    (processes x share) enforces the budget."""
    t = template(monkeypatch, "best", limits={"memory_mb": 256}, use_cgroups=use_cgroups)
    try:
        assert (t.sandbox.cgroups is not None) == use_cgroups
        conn = t.spawn()
        source = MEMORY_CHILDREN.read_text().replace("MEMORY_MB", "256")
        try:
            report = run_cell(conn, source)
            held = int(report["output"].split("held at once:")[1].split()[0])
        except Exception as exc:  # the worker itself was killed for memory: nothing held
            held = 0
            assert "stopped" in str(exc) or "no longer" in str(exc), exc
        assert held * 200 <= 256, report
        conn.kill()
    finally:
        t.close()


COPY_ON_WRITE = (Path(__file__).parent / "attacks" / "hw1_attention" / "memory_copy_on_write.py")


@root_only
def test_a_worker_killed_for_memory_is_told_so(monkeypatch):
    """Beyond its memory cgroup's budget (pages it inherited and rewrote, which
    its address-space limit does not count, plus 150 MB of its own), the
    kernel kills the worker; the grader says it ran out of memory."""
    t = template(monkeypatch, "best", limits={"memory_mb": 192})
    try:
        if t.sandbox.cgroups is None:
            pytest.skip("no memory cgroup can be made here")
        conn = t.spawn()
        grow = "\ndirty_inherited()\nhog = b'x' * (150 << 20)\nimport time; time.sleep(5)\n"
        source = COPY_ON_WRITE.read_text().split("children = []")[0] + grow
        with pytest.raises(WorkerDied) as died:
            run_cell(conn, source)
        assert conn.out_of_memory and "more memory than the submission may" in str(died.value)
    finally:
        t.close()


def test_landlock_and_seccomp_refuse_what_a_worker_must_not_do(tmp_path):
    """In a child confined as a Landlock worker: reading outside the
    allowlist, writing outside its folder or to a "device" that is a regular
    file, sockets, SysV IPC, namespaces, ptrace and exec fail; its own folder, /dev/null and forking work."""
    if landlock.abi_version() < 1:
        pytest.skip("no Landlock in this kernel")
    readable, own = tmp_path / "readable", tmp_path / "own"
    readable.mkdir(), own.mkdir()
    (readable / "a").write_text("a")
    (tmp_path / "secret").write_text("s")
    (tmp_path / "device").write_text("")  # a "device" that is a regular file: disk nobody meters
    code = f"""
import ctypes, os, socket, sys
sys.path[:0] = {sys.path!r}
from autograder.kernel import allowlist, landlock, seccomp
from autograder.worker import confine
confine.no_new_privs()
landlock.restrict(read=[*confine.SYSTEM_DIRS, *allowlist.python_paths([]), {str(readable)!r}],
                  write=[{str(own)!r}], devices=["/dev/null", {str(tmp_path / 'device')!r}])
seccomp.install(allow_exec=False)
libc = ctypes.CDLL(None, use_errno=True)
def refused(f):
    try:
        return f() == -1
    except OSError:
        return True
def fork():
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    return os.waitpid(pid, 0)[1]
checks = {{
    "read allowlisted": not refused(lambda: open({str(readable / 'a')!r}).read()),
    "write own": not refused(lambda: open({str(own / 'b')!r}, "w").write("b")),
    "dev null": not refused(lambda: open("/dev/null", "w").write("x")),
    "fork": not refused(fork),
    "read secret": refused(lambda: open({str(tmp_path / 'secret')!r}).read()),
    "read /proc/1": refused(lambda: open("/proc/1/cmdline").read()),
    "write /tmp": refused(lambda: open("/tmp/autograder-landlock-test", "w")),
    "a device that is a file": refused(lambda: os.open({str(tmp_path / 'device')!r}, os.O_WRONLY)),
    "inet socket": refused(lambda: socket.socket()),
    "unix socket": refused(lambda: socket.socket(socket.AF_UNIX)),
    "socketpair": not refused(lambda: socket.socketpair()),
    "sysv shm": refused(lambda: libc.shmget(0, 4096, 0o1600)),
    "unshare": refused(lambda: libc.unshare(0x10000000)),
    "ptrace": refused(lambda: libc.ptrace(16, 1, None, None)),
    "exec": refused(lambda: os.execv("/bin/true", ["true"])),
}}
print({{k: v for k, v in checks.items() if not v}})
"""
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert proc.stdout.strip() == "{}", proc.stdout + proc.stderr


def test_landlock_missing_features_are_named_by_abi():
    assert landlock.missing(7) == [] and landlock.missing(6) == []
    assert any("TCP" in m for m in landlock.missing(3)) and len(landlock.missing(1)) == 5
    assert landlock.fs_rights(1) == (1 << 13) - 1 and landlock.fs_rights(5) >> 15 == 1


@pytest.fixture
def open_folder():
    """A folder every user can pass through, on a way every user can pass
    through (pytest's own tmp_path is inside a 0700 folder)."""
    folder = Path(tempfile.mkdtemp(prefix="autograder-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


def test_landlock_mode_names_a_python_other_users_cannot_reach(open_folder, monkeypatch):
    """Landlock's workers run as uids of their own without a new root: a Python
    inside a folder closed to other users (/root is 0700) is refused with the
    folder named, not left to fail as a missing module in every worker."""
    home = open_folder / "home"
    prefix = home / "pyenv" / "versions" / "3.11"
    prefix.mkdir(parents=True)
    home.chmod(0o700)
    assert sandbox.closed_to_others([str(prefix)]) == str(home)
    home.chmod(0o711)
    assert sandbox.closed_to_others([str(prefix)]) is None
    home.chmod(0o700)
    monkeypatch.setattr(sandbox.allowlist, "python_paths", lambda hidden: [str(prefix)])
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 0)
    monkeypatch.setattr(sandbox.landlock, "abi_version", lambda: 7)
    monkeypatch.setattr(sandbox.seccomp, "load_library", lambda: None)
    why = sandbox.Needs([]).missing(sandbox.modes.LANDLOCK)
    assert why is not None and str(home) in why and "every user can read" in why


def _fake_cgroupfs(tmp_path: Path, mounts: list[str], own: str) -> tuple[Path, Path]:
    mountinfo, own_file = tmp_path / "mountinfo", tmp_path / "cgroup"
    mountinfo.write_text("".join(f"{i} 1 0:{i} {m}\n" for i, m in enumerate(mounts, 30)))
    own_file.write_text(own)
    return mountinfo, own_file


def test_cgroup_v2_delegated_subtree(tmp_path, monkeypatch):
    """Not root, in a delegated cgroup holding only the grader: the grader
    moves into a leaf, enables memory and pids below, and each worker gets
    memory.max = the budget and pids.max."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    fs = tmp_path / "fs"
    scope = fs / "user.slice/app.scope"
    scope.mkdir(parents=True)
    (scope / "cgroup.controllers").write_text("cpu memory pids\n")
    (scope / "cgroup.procs").write_text(f"{os.getpid()}\n")
    info, own = _fake_cgroupfs(tmp_path, [f"/ {fs} rw - cgroup2 cgroup2 rw"],
                               "0::/user.slice/app.scope\n")
    groups = cgroups.create("batch", info, own)
    assert groups is not None and groups.describe() == "cgroup v2"
    assert (scope / "batch-grader" / "cgroup.procs").read_text() == str(os.getpid())
    assert (scope / "cgroup.subtree_control").read_text() == "+memory +pids"
    procs = groups.make("w1", 256 << 20, 5)
    assert procs == [str(scope / "batch" / "w1" / "cgroup.procs")]
    assert (scope / "batch" / "w1" / "memory.max").read_text() == str(256 << 20)
    assert (scope / "batch" / "w1" / "pids.max").read_text() == "5"


def test_cgroup_v2_delegated_subtree_shared_with_the_graders_factories(tmp_path, monkeypatch):
    """The grader's template factories (started by an earlier batch) share its cgroup:
    still delegated, and they move into the leaf with it; a process of someone else's
    beside them still gives no cgroup."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    fs = tmp_path / "fs"
    scope = fs / "app.scope"
    scope.mkdir(parents=True)
    (scope / "cgroup.controllers").write_text("memory pids\n")
    info, own = _fake_cgroupfs(tmp_path, [f"/ {fs} rw - cgroup2 cgroup2 rw"], "0::/app.scope\n")
    (scope / "cgroup.procs").write_text(f"{os.getpid()}\n4242\n4343\n")
    assert cgroups.create("batch", info, own, companions=(4242,)) is None
    moved = []
    real_write = Path.write_text

    def write(path, text, *args, **kwargs):
        if path.name == "cgroup.procs":
            moved.append(text)
        return real_write(path, text, *args, **kwargs)
    monkeypatch.setattr(Path, "write_text", write)
    assert cgroups.create("batch", info, own, companions=(4242, 4343)) is not None
    assert moved == [str(os.getpid()), "4242", "4343"]


def test_cgroup_v2_not_delegated_gives_none(tmp_path, monkeypatch):
    """Other processes share the grader's cgroup (a login session): no cgroup."""
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    fs = tmp_path / "fs"
    (fs / "session.scope").mkdir(parents=True)
    (fs / "session.scope" / "cgroup.controllers").write_text("memory pids\n")
    (fs / "session.scope" / "cgroup.procs").write_text(f"1\n{os.getpid()}\n")
    info, own = _fake_cgroupfs(tmp_path, [f"/ {fs} rw - cgroup2 cgroup2 rw"],
                               "0::/session.scope\n")
    assert cgroups.create("batch", info, own) is None


def test_cgroup_v1_memory_and_pids(tmp_path):
    mem, pids = tmp_path / "memory", tmp_path / "pids"
    (mem / "job").mkdir(parents=True), pids.mkdir()
    info, own = _fake_cgroupfs(tmp_path, [f"/ {mem} rw - cgroup cgroup rw,memory",
                                          f"/ {pids} rw - cgroup cgroup rw,pids"],
                               "5:pids:/\n4:memory:/job\n0::/\n")
    groups = cgroups.create("batch", info, own)
    assert groups.describe() == "cgroup v1"
    procs = groups.make("w1", 1 << 30, 33)
    assert sorted(procs) == sorted([str(mem / "job/batch/w1/cgroup.procs"),
                                    str(pids / "batch/w1/cgroup.procs")])
    assert (mem / "job/batch/w1/memory.limit_in_bytes").read_text() == str(1 << 30)
    assert (pids / "batch/w1/pids.max").read_text() == "33"


def test_stale_batch_cgroups_of_dead_graders_are_removed(tmp_path):
    """A grader killed before closing leaves its empty batch folders: the next
    grader removes them, never those of a live grader or others'. A grader in
    another PID namespace (its pid means nothing here) keeps its folders while
    a process is left in that namespace; once none is, root in the initial
    namespace, who sees every process, removes them (elsewhere, they stay)."""
    mem = tmp_path / "memory"
    ns, dead = os.stat("/proc/self/ns/pid").st_ino, _dead_pid()
    stale = mem / f"autograder-{ns}.{dead}-abc123"
    stale_leaf = mem / f"autograder-{ns}.{dead}-x-grader"
    live = mem / cgroups.batch_tag("def456")
    vanished_ns = max(_pid_namespaces()) + 1000  # no process in it
    vanished = mem / f"autograder-{vanished_ns}.{dead}-ghi789"
    foreign = mem / "user.slice"
    container, folders = None, [stale / "w1", stale / "w2", live / "w1", vanished / "w1", foreign]
    sees_all = os.geteuid() == 0 and ns == processes.INITIAL_PID_NAMESPACE
    other = subprocess.Popen(["unshare", "--pid", "--fork", "--kill-child", "sleep", "60"]) \
        if sees_all and shutil.which("unshare") else None
    try:
        if other is not None:
            container = mem / f"autograder-{_child_pid_namespace(other.pid)}.{dead}-jkl012"
            folders.append(container / "w1")
        for folder in folders:
            folder.mkdir(parents=True)
        stale_leaf.mkdir()
        info, own = _fake_cgroupfs(tmp_path, [f"/ {mem} rw - cgroup cgroup rw,memory"],
                                   "4:memory:/\n0::/\n")
        groups = cgroups.create("batch", info, own)
    finally:
        if other is not None:
            other.kill()
            other.wait()
    assert groups is not None and not stale.exists() and not stale_leaf.exists()
    assert (live / "w1").is_dir() and foreign.is_dir()
    assert vanished.exists() != sees_all
    assert container is None or (container / "w1").is_dir()
    shutil.rmtree(mem / "batch")  # removed under the grader: made again for the next worker
    assert groups.make("w2", 1 << 30, 5) == [str(mem / "batch" / "w2" / "cgroup.procs")]


def _pid_namespaces() -> set[int]:
    found = {os.stat("/proc/self/ns/pid").st_ino}
    for entry in os.listdir("/proc"):
        try:
            found.add(os.stat(f"/proc/{entry}/ns/pid").st_ino)
        except (OSError, ValueError):
            pass
    return found


def _child_pid_namespace(unshare_pid: int) -> int:
    """The PID namespace of the process `unshare --pid --fork` started."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{unshare_pid}/task/{unshare_pid}/children") as f:
                children = f.read().split()
            if children:
                return os.stat(f"/proc/{children[0]}/ns/pid").st_ino
        except OSError:
            pass
        time.sleep(0.01)
    raise AssertionError("unshare --pid --fork started no process")


def _dead_pid() -> int:
    """The pid of a child that has exited and been reaped."""
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_worker_limits_by_memory_method():
    """With a cgroup one process may use the whole budget and exec is allowed;
    without, 4 processes of memory_mb / 4 each, and no exec."""
    limits = assignment_mod.load("hw1_attention", {"memory_mb": 1024}).config.limits
    with_cgroup = sandbox.Sandbox("namespaces", None, object()).worker_limits(limits)
    assert (with_cgroup.as_mb, with_cgroup.exec, with_cgroup.nproc) == (1024, True, None)
    userns = sandbox.Sandbox("userns", None, None).worker_limits(limits)
    assert (userns.as_mb, userns.processes, userns.nproc, userns.exec) == \
        (256, 4, 5, False)  # the waiter of the user namespace counts there too


@pytest.mark.heavy
@root_only
def test_grade_refuses_where_no_sandbox_works_unless_told(tmp_path):
    """An unprivileged user in a container that refuses namespaces: grade
    exits 2 naming what to enable; with --unsafe-no-sandbox it grades."""
    if sandbox_modes.unavailable("user"):
        pytest.skip(sandbox_modes.unavailable("user"))
    work = sandbox_modes.workdir("user")
    try:
        (work / "subs").mkdir()
        write_notebook(work / "subs" / "a.ipynb", ["x = 1"])
        base = (f"{sys.executable} -m autograder grade {work}/subs --assignment hw1_attention "
                f"--out {work}/out --quiet")
        refused = _run_bare(base, work)
        assert refused.returncode == 2, refused.stderr
        assert "--unsafe-no-sandbox" in refused.stderr and "user namespaces" in refused.stderr
        assert not (work / "out").exists()
        unsafe = _run_bare(base + " --unsafe-no-sandbox", work)
        assert unsafe.returncode == 0, unsafe.stderr
        assert "sandbox: none (UNSAFE" in unsafe.stderr
        assert (work / "out" / "grades.csv").is_file()
    finally:
        subprocess.run(["rm", "-rf", str(work)])


def test_the_check_before_grading_gets_the_batchs_sandbox(monkeypatch):
    """grade checks the hidden tests against the master before grading, unless a stamp
    says these sources were checked: that check grades in the sandbox the batch gets,
    none with --unsafe-no-sandbox. (It refused once where no sandbox works, flag or not,
    whenever no stamp was there yet: the test above passed only after another test had
    left one.)"""
    from types import SimpleNamespace
    from autograder import grade as pipeline
    from autograder.build import selfcheck
    from autograder.engine import batch
    asked = []
    monkeypatch.setattr(selfcheck, "checked", lambda assignment_id: False)
    monkeypatch.setattr(selfcheck, "mark_checked", lambda assignment_id: None)
    monkeypatch.setattr(batch, "grade_folder", lambda *args, **kwargs: (
        asked.append(kwargs.get("allow_unsafe", False)), SimpleNamespace(results=[]))[1])
    for allow_unsafe in (True, False):
        assert pipeline.hidden_tests_disagree("hw1_attention", allow_unsafe) is None
    assert asked == [True, False]


def _run_bare(script: str, work: Path):
    cmd = sandbox_modes.command("user", script, "unused", work)
    cmd[-1] = cmd[-1].replace("exec setpriv", f"exec {sys.executable} "
                              f"{sandbox_modes.REPO / 'tests' / 'security' / 'dockerlike.py'} setpriv")
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300,
                          cwd=sandbox_modes.REPO)


GRADER_DIES = """
import os, signal, sys
sys.path.insert(0, {source!r})
from autograder import protocol
from autograder.engine import assignment
from autograder.engine.isolation.workers import Template, WorkerDied
t = Template(assignment.load("hw1_attention").config, [])
conn = t.spawn()
reply, buffers = conn.request({{"op": "run_cell", "index": 1, "source": {detach!r}}}, timeout=60)
assert protocol.unpack(reply["ok"], buffers, lambda handle: None)["error"] is None
print(t.sandbox.mode, flush=True)
os.kill(os.getpid(), signal.SIGKILL)  # no cleanup of any kind
"""


@pytest.mark.heavy
@pytest.mark.parametrize("mode", list(sandbox_modes.MODES))
def test_nothing_of_a_worker_outlives_a_killed_grader(mode):
    """The grader is SIGKILLed while its worker has a detached process: 3 s
    later no process is left (the template sees its control socket close, the
    waiters get their parent-death signal, and the namespace or the uid goes
    with them)."""
    if sandbox_modes.unavailable(mode):
        pytest.skip(sandbox_modes.unavailable(mode))
    from tests.security.test_integrity import LEFTOVER
    work = sandbox_modes.workdir(mode)
    try:
        source = sandbox_modes.source(mode, work)
        (work / "grader.py").write_text(GRADER_DIES.format(source=str(source), detach=DETACH))
        python = sandbox_modes.python(mode)
        script = f"{python} {work}/grader.py; sleep 3; {python} -c \"{LEFTOVER}\""
        proc = subprocess.run(sandbox_modes.command(mode, script, "unused", work),
                              capture_output=True, text=True, timeout=300)
        mode_used, left = proc.stdout.split()
        assert mode_used == sandbox_modes.MODES[mode], proc.stderr
        assert left == "0", proc.stdout + proc.stderr
    finally:
        subprocess.run(["rm", "-rf", str(work)])
