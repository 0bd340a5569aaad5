"""Grading on a Dask cluster (`grade --scheduler`), on this machine only:
every scheduler and worker listens on 127.0.0.1.

Does a cluster give the local path's results? Does a worker killed
mid-batch lose nothing, and leave each submission exactly one result? Does
a lost scheduler end the run with status 2, and --resume finish it?
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder import paths
from autograder.cli import main
from autograder.cluster import ClusterError, bundle
from autograder.engine import resume
from autograder.engine import assignment as assignment_mod
from autograder.engine import results
from tests.cluster.batches import EXAMPLES, slow_batch
from tests.cluster.hosts import until
from tests.conftest import FAST_LIMITS

# Heavy (grades batches on a Dask cluster): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

PY = sys.executable
ENV = dict(os.environ, PYTHONPATH=str(paths.ROOT))
LIMITS = [f"--limit={k}={v}" for k, v in FAST_LIMITS.items()]
TIMED = {"execution_time"}
"""The only results.json field that may differ between two runs: wall time."""


def _run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([PY, "-m", "autograder", *args], env=ENV, cwd=paths.ROOT,
                          capture_output=True, text=True, timeout=300)


def _untimed(path: Path) -> dict:
    data = json.loads(path.read_text())
    return {k: v for k, v in data.items() if k not in TIMED}


def _grades(out: Path) -> list[list[str]]:
    lines = (out / "grades.csv").read_text().splitlines()
    return [line.split(",") for line in lines[1:]]


class _Cluster:
    """`dask scheduler` and `dask worker` processes on 127.0.0.1, each ended by its pid."""

    def __init__(self, folder: Path, certs: dict[str, Path] | None = None):
        self.folder = folder
        self.certs = certs  # TLS: {"ca", "cert", "key"} for the scheduler and each worker
        self.tls = [] if certs is None else [
            "--tls-ca-file", str(certs["ca"]), "--tls-cert", str(certs["cert"]),
            "--tls-key", str(certs["key"])]
        self.file = folder / "scheduler.json"
        self.procs: list[subprocess.Popen] = []
        self.scheduler = None

    def start_scheduler(self) -> str:
        self.file.unlink(missing_ok=True)
        self.scheduler = self._start("distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                     "--port", "0", "--no-dashboard",
                                     "--scheduler-file", str(self.file), *self.tls,
                                     *(["--protocol", "tls"] if self.tls else []))
        deadline = time.monotonic() + 60
        while True:  # the scheduler writes its file in place: it may be seen empty, or half
            try:
                return json.loads(self.file.read_text())["address"]
            except (FileNotFoundError, json.JSONDecodeError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def start_workers(self, n: int) -> list[subprocess.Popen]:
        started = [self._start("distributed.cli.dask_worker", "--scheduler-file",
                               str(self.file), "--host", "127.0.0.1", "--nthreads", "1",
                               "--no-nanny", "--no-dashboard", "--death-timeout", "20",
                               *self.tls)
                   for _ in range(n)]
        from distributed import Client
        from distributed.security import Security
        alive = [p for p in self.procs if p is not self.scheduler and p.poll() is None]
        security = None if self.certs is None else Security(
            tls_ca_file=str(self.certs["ca"]), tls_client_cert=str(self.certs["cert"]),
            tls_client_key=str(self.certs["key"]))
        with Client(self.address(), set_as_default=False, timeout=30,
                    security=security) as client:
            client.wait_for_workers(len(alive), timeout=120)
        return started

    def address(self) -> str:
        return json.loads(self.file.read_text())["address"]

    def _start(self, module: str, *args: str) -> subprocess.Popen:
        log = open(self.folder / f"{module.rsplit('.', 1)[1]}-{len(self.procs)}.log", "w")
        proc = subprocess.Popen([PY, "-m", module, *args], env=ENV, cwd=self.folder,
                                stdout=log, stderr=log)
        log.close()
        self.procs.append(proc)
        return proc

    def stop(self) -> None:
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            proc.wait()


@pytest.fixture
def cluster(tmp_path):
    c = _Cluster(tmp_path)
    yield c
    c.stop()


def test_local_cluster_gives_the_local_results(tmp_path):
    """Two worker processes grade hw1's examples, and a folder holding the handout
    beside an edited copy: every file is the local path's, byte for byte, except
    results.json's execution_time and the class report's runtimes (wall time); the
    note saying which of the folder's notebooks was graded is kept on both paths."""
    from distributed import LocalCluster
    local, remote, subs = tmp_path / "local", tmp_path / "remote", tmp_path / "subs"
    shutil.copytree(EXAMPLES, subs)
    (subs / "both").mkdir()
    shutil.copy(EXAMPLES / "untouched.ipynb", subs / "both" / "hw1_attention.ipynb")
    shutil.copy(EXAMPLES / "full_solution.ipynb", subs / "both" / "hw1_attention (1).ipynb")
    assert main(["grade", str(subs), "--assignment", "hw1_attention", "--out", str(local),
                 "--quiet", *LIMITS]) == 0
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=":0") as lc:
        assert main(["grade", str(subs), "--assignment", "hw1_attention", "--out",
                     str(remote), "--quiet", "--scheduler", lc.scheduler_address, *LIMITS]) == 0
    files = sorted(p.relative_to(local) for p in local.rglob("*") if p.is_file()
                   and resume.FOLDER not in p.parts)  # each run's own record, timed
    assert len([f for f in files if f.name == "results.json"]) == 6
    graded = json.loads((remote / "both" / "results.json").read_text())["output"]
    assert "hw1_attention (1).ipynb, which holds answers, was graded instead" in graded
    for f in files:
        if f.name == "results.json":
            assert _untimed(remote / f) == _untimed(local / f), f
        elif f.name != "report.html":
            assert (remote / f).read_bytes() == (local / f).read_bytes(), f
    assert sorted(p.relative_to(remote) for p in remote.rglob("*") if p.is_file()
                  and resume.FOLDER not in p.parts) == files


def test_a_worker_killed_midway_loses_nothing(tmp_path, cluster):
    """A worker is killed while it grades; its submission is graded again on
    the other, and every submission ends with exactly one full-marks result."""
    from distributed import Client
    ids = slow_batch(tmp_path / "subs", 6, 1.5)
    address = cluster.start_scheduler()
    cluster.start_workers(2)
    out = tmp_path / "out"
    grading = subprocess.Popen(
        [PY, "-m", "autograder", "grade", str(tmp_path / "subs"), "--assignment",
         "hw1_attention", "--out", str(out), "--quiet", "--scheduler", address, *LIMITS],
        env=ENV, cwd=paths.ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    with Client(address, set_as_default=False) as client:
        until(lambda: any(out.glob("*/results.json")))
        busy = []
        until(lambda: busy.extend(w for w, keys in client.processing().items() if keys)
              or busy)
        pid = client.run(os.getpid, workers=busy[:1])[busy[0]]
        victim = next(p for p in cluster.procs if p.pid == pid)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
    _, err = grading.communicate(timeout=300)
    assert grading.returncode == 0, err
    rows = _grades(out)
    assert sorted(r[0] for r in rows) == ids  # each submission once
    assert all(float(r[1]) == 18.0 for r in rows), rows
    assert sorted(p.parent.name for p in out.glob("*/results.json")) == ids


def test_a_lost_scheduler_stops_the_run_and_resume_finishes_it(tmp_path, cluster):
    """The scheduler is stopped mid-batch: exit status 2, a message that says
    what to do, the results written so far intact. --resume against a new
    scheduler grades only the rest and writes grades.csv for all."""
    ids = slow_batch(tmp_path / "subs", 8, 1.0)
    address = cluster.start_scheduler()
    cluster.start_workers(1)
    out = tmp_path / "out"
    args = [str(tmp_path / "subs"), "--assignment", "hw1_attention", "--out", str(out),
            "--quiet", *LIMITS]
    grading = subprocess.Popen([PY, "-m", "autograder", "grade", *args, "--scheduler",
                                address], env=ENV, cwd=paths.ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    until(lambda: any(out.glob("*/results.json")))
    cluster.scheduler.send_signal(signal.SIGKILL)
    _, err = grading.communicate(timeout=120)
    assert grading.returncode == 2, err
    assert "lost the Dask scheduler" in err and "--resume" in err, err
    assert not (out / "grades.csv").exists()
    before = {p.parent.name: p.read_bytes() for p in out.glob("*/results.json")}
    assert 0 < len(before) < len(ids), err
    cluster.stop()

    address = cluster.start_scheduler()
    cluster.start_workers(1)
    done = _run_cli("grade", *args, "--scheduler", address, "--resume")
    assert done.returncode == 0, done.stderr
    assert f"resuming: {len(before)} of {len(ids)} submissions are complete" in done.stderr
    for sid, data in before.items():  # kept, not graded again (execution_time would differ)
        assert (out / sid / "results.json").read_bytes() == data
    rows = _grades(out)
    assert sorted(r[0] for r in rows) == ids and all(float(r[1]) == 18.0 for r in rows)
    assert (out / "report.html").exists() and (out / "gradebook.csv").exists()


def test_the_local_path_never_imports_dask(tmp_path):
    """Without --scheduler, grading imports neither dask nor distributed."""
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copy(EXAMPLES / "untouched.ipynb", subs)
    code = ("import sys; from autograder.cli import main; "
            f"rc = main(['grade', {str(subs)!r}, '--assignment', 'hw1_attention', "
            f"'--out', {str(tmp_path / 'out')!r}, '--quiet']); "
            "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in "
            "('dask', 'distributed')))")
    done = subprocess.run([PY, "-c", code], env=ENV, cwd=paths.ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.stdout.split() == ["0", "[]"], done.stdout + done.stderr


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path, capsys):
    import dask
    import distributed  # noqa: F401  its defaults first: set()'s exit would drop the whole key
    with socket.socket() as s:  # a loopback port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):
        code = main(["grade", str(EXAMPLES), "--assignment", "hw1_attention", "--out",
                     str(tmp_path / "out"), "--quiet", "--scheduler", f"tcp://127.0.0.1:{port}"])
    assert code == 2
    assert "cannot reach the Dask scheduler" in capsys.readouterr().err


def test_a_host_running_other_grader_code_refuses(tmp_path):
    shipped = bundle.make("hw1_attention")
    with pytest.raises(ClusterError, match="differs from the client's"):
        bundle.install(dict(shipped, engine="0" * 64), tmp_path)
    assert not any(tmp_path.iterdir())  # refused before writing anything
    with pytest.raises(ClusterError, match=r"torch \S+ here, 0\.0 on the client"):
        bundle.install(dict(shipped, versions=dict(shipped["versions"], torch="0.0")), tmp_path)
    assert not any(tmp_path.iterdir())


def test_resume_keeps_only_complete_results(tmp_path):
    """A result is kept when its record and results.json agree and match the
    assignment; a missing, edited or foreign one is graded again."""
    a = assignment_mod.load("hw1_attention")
    tests = [results.TestResult(c.question, c.name, c.title, c.points, c.points, "passed",
                                c.visibility) for c in a.cases]
    for sid in ("ok", "edited", "no_record", "foreign"):
        resume.keep(tmp_path, results.SubmissionResult(sid, a.id, tests=list(tests),
                                                      annotations={"exam": {"variants": {}}}))
    edited = tmp_path / "edited" / "results.json"
    edited.write_text(edited.read_text().replace('"score": 18.0', '"score": 17.0', 1))
    (tmp_path / resume.FOLDER / "no_record.json").unlink()
    foreign = tmp_path / resume.FOLDER / "foreign.json"
    foreign.write_text(foreign.read_text().replace('"hw1_attention"', '"hw2_positions_params"'))
    kept = resume.completed(tmp_path, a, ["ok", "edited", "no_record", "foreign", "absent"])
    assert list(kept) == ["ok"]
    assert results.to_plain(kept["ok"]) == results.to_plain(
        results.SubmissionResult("ok", a.id, tests=list(tests),
                                 annotations={"exam": {"variants": {}}}))


def test_bench_compares_the_local_path_with_a_cluster(tmp_path):
    """Does `bench --dask 1` print a row per configuration, the cluster's
    grades identical to the local path's? (Figures only, never their speed.)"""
    from autograder.cluster import bench
    text = bench.run("hw1_attention", EXAMPLES, tmp_path, [1])
    rows = [line for line in text.splitlines() if line.startswith("| ") and "|---" not in line]
    assert [r.split("|")[1].strip() for r in rows[1:]] == [
        "local path, --jobs 1", "Dask, 1 worker x 1 thread"]
    assert rows[2].split("|")[2].strip() == "5" and rows[2].rstrip(" |").endswith("identical")


class _Finished:
    """A Dask future as `_Run._outcome` sees it, without a cluster."""

    def __init__(self, status: str, exc: BaseException | None = None):
        self.status, self._exc = status, exc

    def exception(self):
        return self._exc


def _run_for(tmp_path):
    from autograder.cluster import client
    from autograder.engine import batch
    from autograder.engine.progress import Progress
    a = assignment_mod.load("hw1_attention")
    return client._Run(None, "tcp://127.0.0.1:1", batch.Batch(a, tmp_path), {},
                       Progress(1, enabled=False), total=1)


def test_a_notebook_whose_hosts_keep_dying_gets_a_zero_result(tmp_path):
    """Dask's KilledWorker costs that submission its points, never the batch."""
    from distributed import KilledWorker
    run = _run_for(tmp_path)
    plain = results.to_plain(results.SubmissionResult("s1", "hw1_attention"))
    r = run._outcome(_Finished("error", KilledWorker("k", "tcp://w", 3)), plain)
    assert r.submission == "s1" and r.score == 0 and "internal grader error" in r.error
    assert len(r.tests) == len(run.batch.assignment.cases)


def test_a_cancelled_task_means_the_scheduler_is_lost_and_a_failed_host_stops_the_run(
        tmp_path):
    run = _run_for(tmp_path)
    plain = results.to_plain(results.SubmissionResult("s1", "hw1_attention"))
    with pytest.raises(ClusterError, match="lost the Dask scheduler.*--resume"):
        run._outcome(_Finished("cancelled"), plain)
    assert run.lost
    with pytest.raises(ClusterError, match="a grading host failed .ModuleNotFoundError"):
        _run_for(tmp_path)._outcome(_Finished("error", ModuleNotFoundError("x")), plain)


def _certificates(folder: Path) -> dict[str, Path]:
    """A CA and one certificate for 127.0.0.1 (server and client), made by openssl."""
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)
    folder.mkdir()
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
            "ca.pem", "-days", "2", "-subj", "/CN=test-ca")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "node.key", "-out", "node.csr",
            "-subj", "/CN=127.0.0.1")
    (folder / "ext.cnf").write_text("subjectAltName=IP:127.0.0.1\n"
                                    "extendedKeyUsage=serverAuth,clientAuth\n")
    openssl("x509", "-req", "-in", "node.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-CAcreateserial", "-out", "node.pem", "-days", "2", "-extfile", "ext.cnf")
    return {"ca": folder / "ca.pem", "cert": folder / "node.pem", "key": folder / "node.key"}


@pytest.mark.skipif(shutil.which("openssl") is None, reason="needs openssl to make certificates")
def test_a_tls_scheduler_takes_the_client_certificate_from_dask_config(tmp_path):
    """With the client's TLS files in Dask's configuration (environment), `grade
    --scheduler tls://...` grades; without them it stops with a message."""
    certs = _certificates(tmp_path / "certs")
    cluster = _Cluster(tmp_path, certs)
    try:
        address = cluster.start_scheduler()
        cluster.start_workers(1)
        assert address.startswith("tls://")
        subs = tmp_path / "subs"
        subs.mkdir()
        shutil.copy(EXAMPLES / "full_solution.ipynb", subs)
        args = ["grade", str(subs), "--assignment", "hw1_attention", "--out",
                str(tmp_path / "out"), "--quiet", "--scheduler", address, *LIMITS]
        refused = _run_cli(*args)
        assert refused.returncode == 2 and "needs the client's TLS files" in refused.stderr
        env = dict(ENV, DASK_DISTRIBUTED__COMM__TLS__CA_FILE=str(certs["ca"]),
                   DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT=str(certs["cert"]),
                   DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY=str(certs["key"]))
        done = subprocess.run([PY, "-m", "autograder", *args], env=env, cwd=paths.ROOT,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert _grades(tmp_path / "out")[0][:2] == ["full_solution", "18.0"]
    finally:
        cluster.stop()


def test_a_killed_hosts_folder_is_removed_by_the_next_host_and_a_live_ones_kept(tmp_path):
    """A host killed before its teardown leaves its private folder (the installed
    assignment); the next host to start removes it, never a live host's. (Each host in
    a process of its own: a host loads the shipped assignment as its package.)"""
    made = ("from autograder.cluster import host; from autograder.engine.isolation import scratch; "
            "import os, tempfile; tempfile.tempdir = {!r}; "
            "f = scratch.Scratch(prefix=host.FOLDER_PREFIX, mode=0o700); "
            "(f.path / 'grading_config.toml').write_text('x'); print(f.path, flush=True); {}")
    dead = subprocess.run([PY, "-c", made.format(str(tmp_path), "os.kill(os.getpid(), 9)")],
                          env=ENV, capture_output=True, text=True, timeout=60).stdout.strip()
    live = subprocess.Popen([PY, "-c", made.format(str(tmp_path), "input()")], env=ENV,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    next_host = ("import tempfile, sys, types; tempfile.tempdir = sys.argv[1]; "
                 "from autograder.cluster import bundle, host; "
                 "from tests.conftest import FAST_LIMITS; "
                 "h = host.GradingHost(bundle.make('hw1_attention', FAST_LIMITS), 'h'); "
                 "w = types.SimpleNamespace(address='h', state=types.SimpleNamespace(nthreads=1), "
                 "set_resources=lambda **_: None); "  # all of a Dask worker that setup uses
                 "h.setup(w); h.grader(); own = h._folder.path; "
                 "print(own, own.is_dir(), flush=True); h.teardown(w); print(own.exists())")
    try:
        kept = live.stdout.readline().strip()
        assert Path(dead).is_dir() and Path(kept).is_dir()
        proc = subprocess.run([PY, "-c", next_host, str(tmp_path)], env=ENV, cwd=paths.ROOT,
                              capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-3000:]
        started, ended = proc.stdout.splitlines()[-2:]
        assert started.endswith(" True") and ended == "False"  # its own: made, then removed
        assert not Path(dead).exists() and Path(kept).is_dir()
    finally:
        live.kill()
        live.wait()
