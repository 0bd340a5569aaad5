"""Grading on a Dask cluster of separate hosts (tests/cluster/hosts.py says how they
are made on this machine and what is not reproduced).

The scheduler, the grading hosts and the client each have a network namespace of
their own on a private bridge, and speak TLS only, with certificates made here;
each grading host has its own disk, holding the grader's code without any
course's files, the requirements and its TLS files, and sees neither the client's
checkout nor another host's disk. Does such a cluster give the local path's
grades, leave nothing on a host, lose nothing when a host dies mid-run (all its
processes at once), and clean the dead host's folder once it starts again? Does a
host running other grader code refuse the run without stopping the others, does a
host that joins mid-run take its share, and does --resume finish a run whose
scheduler died?
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder import paths
from autograder.cli import main
from tests.cluster import hosts
from tests.cluster.batches import EXAMPLES, slow_batch
from tests.conftest import FAST_LIMITS

pytestmark = [pytest.mark.slow(minutes=2),  # one group: the tests share the network
              pytest.mark.skipif(hosts.unavailable() is not None,
                                 reason=str(hosts.unavailable()))]

HOSTS = ("h1", "h2")
OTHER = "h3"
"""A host whose grader code is not the client's."""
PORT = 8786
LIMITS = [f"--limit={k}={v}" for k, v in FAST_LIMITS.items()]
FULL = 18.0
"""hw1's full marks."""


@pytest.fixture(scope="module")
def network():
    net = hosts.Network(["scheduler", "client", *HOSTS, OTHER])
    yield net
    net.close()


@pytest.fixture(scope="module")
def certs(network, tmp_path_factory):
    return hosts.certificates(tmp_path_factory.mktemp("tls") / "files", network.ips)


class Cluster:
    """A TLS scheduler in its namespace and a Machine per grading host."""

    def __init__(self, network: hosts.Network, certs: dict, folder: Path):
        self.network, self.certs, self.folder = network, certs, folder
        self.address = f"tls://{network.ips['scheduler']}:{PORT}"
        self.host = hosts.Machine(network, "scheduler", folder / "scheduler",
                                  certs["scheduler"])
        self.log = self.host.log
        self.scheduler = self.host.start_scheduler(PORT)
        self.machines = {h: hosts.Machine(network, h, folder / h, certs[h]) for h in HOSTS}
        self.machines[OTHER] = hosts.Machine(network, OTHER, folder / OTHER, certs[OTHER],
                                             edit=_other_version)
        self.wait(lambda: "Scheduler at:" in self.log.read_text(), "the scheduler to start")

    def kill_scheduler(self) -> None:
        self.host.kill()

    def start_scheduler(self) -> None:
        """The scheduler again, at its address (its host is up again)."""
        started = self.log.read_text().count("Scheduler at:")
        self.scheduler = self.host.start_scheduler(PORT)
        self.wait(lambda: self.log.read_text().count("Scheduler at:") > started,
                  "the scheduler to start")

    def start(self, *names: str) -> None:
        expected = hosts.registered(self.log) + len(names)
        for name in names:
            self.machines[name].start_worker(self.address)
        self.wait(lambda: hosts.registered(self.log) >= expected, f"{names} to register")

    def grade(self, subs: Path, out: Path, *more: str) -> subprocess.Popen:
        """`grade --scheduler tls://...` in the client's namespace."""
        env = dict(os.environ, PYTHONPATH=str(paths.ROOT),
                   **hosts.client_environment(self.certs["client"]))
        return subprocess.Popen(
            [*self.network.inside("client"), sys.executable, "-m", "autograder", "grade",
             str(subs), "--assignment", "hw1_attention", "--out", str(out), "--quiet",
             "--scheduler", self.address, *LIMITS, *more],
            cwd=paths.ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def stop(self) -> None:
        for machine in [*self.machines.values(), self.host]:
            machine.stop()

    def wait(self, condition, what: str, seconds: float = 120) -> None:
        try:
            hosts.until(condition, seconds, lambda: "the scheduler stopped"
                        if self.scheduler.poll() is not None else None)
        except AssertionError as exc:
            logs = [self.log, *(m.log for m in self.machines.values() if m.log.exists())]
            raise AssertionError(f"waiting for {what}: {exc}\n" + "\n".join(
                f"{p}:\n{p.read_text()[-2000:]}" for p in logs)) from None


def _other_version(package: Path) -> None:
    """Another version of the grader: one line of its engine changed."""
    with open(package / "engine" / "batch.py", "a") as f:
        f.write("\n# another version\n")


@pytest.fixture
def cluster(network, certs, tmp_path):
    made = Cluster(network, certs, tmp_path)
    yield made
    made.stop()


def _grades(out: Path) -> dict[str, str]:
    lines = (out / "grades.csv").read_text().splitlines()
    return {row.split(",")[0]: row.split(",")[1] for row in lines[1:]}


def _until(proc: subprocess.Popen, condition, seconds: float = 300) -> None:
    """Wait for `condition` while the client still runs (mid-run, then)."""
    hosts.until(condition, seconds, lambda: f"the client ended: {proc.communicate()}"
                if proc.poll() is not None else None, interval=0.05)


def _watch(proc: subprocess.Popen, machines, seconds: float = 300) -> tuple[set[str], str]:
    """Wait for the client; the hosts seen holding a private folder meanwhile
    (each makes one at its first submission), and the client's stderr."""
    seen, deadline = set(), time.monotonic() + seconds
    while proc.poll() is None and time.monotonic() < deadline:
        seen |= {name for name, m in machines.items() if m.private_folders()}
        time.sleep(0.05)
    _, err = proc.communicate(timeout=30)
    return seen, err


def test_separate_hosts_over_tls_give_the_local_grades_and_keep_nothing(cluster, tmp_path):
    """hw1's examples and a slow batch graded across both hosts: grades.csv and
    every results.json are the local path's (but wall time), both hosts graded,
    and neither keeps a file of the run once it ends."""
    subs = tmp_path / "subs"
    slow_batch(subs, 4, 0.5)
    for path in EXAMPLES.glob("*"):
        shutil.copy(path, subs)
    local, remote = tmp_path / "local", tmp_path / "remote"
    assert main(["grade", str(subs), "--assignment", "hw1_attention", "--out", str(local),
                 "--quiet", *LIMITS]) == 0
    cluster.start(*HOSTS)
    for name in HOSTS:  # a host's disk is its own: no course, no other host, no client
        machine = cluster.machines[name]
        assert machine.sees(paths.ROOT) == [] and machine.sees(tmp_path) == []
        assert machine.sees("/tmp") == ["code", "dask.log", "tls", "tmp", "venv"]
        assert machine.sees("/tmp/code/autograder/hw1_attention") == []
        assert machine.may_write("/tmp/tmp/probe") and not machine.may_write("/tmp/venv/probe")
    proc = cluster.grade(subs, remote)
    seen, err = _watch(proc, cluster.machines)
    assert proc.returncode == 0, err
    assert seen == set(HOSTS), err  # each host graded some
    assert _grades(remote) == _grades(local) and len(_grades(local)) == 9
    for path in local.glob("*/results.json"):
        mine, theirs = (json.loads(p.read_text()) for p in (path, remote / path.relative_to(local)))
        mine.pop("execution_time"), theirs.pop("execution_time")
        assert mine == theirs, path
    assert "grading host sandbox:" in err
    for name in HOSTS:
        assert cluster.machines[name].private_folders() == []
        assert cluster.machines[name].proc.poll() is None  # still serving


def test_a_host_killed_mid_run_loses_nothing_and_its_folder_goes_when_it_restarts(
        cluster, tmp_path):
    """h2 dies, every process at once, while it grades: its submissions are graded on
    h1, each submission has exactly one full-marks result, and the run succeeds. Its
    private folder (this run's assignment, nothing else) is left on its disk until a
    host starts there again."""
    ids = slow_batch(tmp_path / "subs", 8, 1.5)
    cluster.start(*HOSTS)
    out = tmp_path / "out"
    proc = cluster.grade(tmp_path / "subs", out)
    h2 = cluster.machines["h2"]
    _until(proc, lambda: h2.private_folders() and any(out.glob("*/results.json")))
    done_before = len(list(out.glob("*/results.json")))
    died = h2.kill()
    cluster.wait(lambda: f"Remove worker addr: tls://{cluster.network.ips['h2']}:"
                 in cluster.log.read_text(), "the scheduler to drop h2", seconds=60)
    dropped = time.monotonic() - died  # its submissions are given to h1 from then on
    _, err = proc.communicate(timeout=300)
    after = time.monotonic() - died
    assert proc.returncode == 0, err
    grades = _grades(out)
    assert sorted(grades) == ids and set(grades.values()) == {str(FULL)}, grades
    assert sorted(p.parent.name for p in out.glob("*/results.json")) == ids
    print(f"h2 killed with {done_before} of {len(ids)} written; the scheduler dropped it "
          f"{dropped:.2f} s later, the run ended {after:.1f} s later")

    left = h2.private_folders()
    assert len(left) == 1
    shipped = {p.relative_to(left[0]).parts[0] for p in left[0].rglob("*") if p.is_file()}
    assert shipped <= {"hw1_attention", "hw1_attention.ipynb", "grading_config.toml", ".grader"}, shipped
    cluster.start("h2")  # the machine is up again
    again = tmp_path / "again"
    again.mkdir()
    shutil.copy(EXAMPLES / "full_solution.ipynb", again)
    proc = cluster.grade(again, tmp_path / "out-again")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0 and _grades(tmp_path / "out-again") == {"full_solution": str(FULL)}
    assert not left[0].exists()  # removed when the new host was registered
    assert all(m.private_folders() == [] for m in cluster.machines.values())


def test_a_host_of_another_version_is_refused_and_one_that_joins_mid_run_grades(
        cluster, tmp_path):
    """h3 runs other grader code: it refuses the run, is given none of it and the client
    says so, while h1 grades; h2 joins mid-run and takes a share. With h3 alone, the run
    stops at once and says why."""
    ids = slow_batch(tmp_path / "subs", 8, 1.0)
    cluster.start("h1", OTHER)
    out = tmp_path / "out"
    proc = cluster.grade(tmp_path / "subs", out)
    _until(proc, lambda: any(out.glob("*/results.json")))  # mid-run
    cluster.start("h2")
    seen, err = _watch(proc, cluster.machines)
    assert proc.returncode == 0, err
    grades = _grades(out)
    assert sorted(grades) == ids and set(grades.values()) == {str(FULL)}, grades
    assert seen == {"h1", "h2"}, err  # h3 installed nothing, h2 graded some
    refused = [line for line in err.splitlines() if "refused this run" in line]
    assert len(refused) == 1 and cluster.network.ips[OTHER] in refused[0], err
    assert "grader code" in refused[0] and "differs from the client's" in refused[0]

    cluster.machines["h1"].kill()
    cluster.machines["h2"].kill()
    cluster.wait(lambda: hosts.registered(cluster.log) == 1, "h1 and h2 to be gone")
    alone = tmp_path / "alone"
    proc = cluster.grade(tmp_path / "subs", alone)
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 2 and "every grading host refused this run" in err, err
    assert not list(alone.glob("*/results.json"))


def test_a_lost_scheduler_stops_the_run_and_resume_finishes_it_once_it_is_back(
        cluster, tmp_path):
    """The scheduler's host dies mid-run: status 2, the results written so far kept;
    each grading host ends with it and keeps none of the run's files. The cluster
    started again at the same address, --resume grades only the rest."""
    ids = slow_batch(tmp_path / "subs", 8, 1.0)
    cluster.start(*HOSTS)
    out = tmp_path / "out"
    proc = cluster.grade(tmp_path / "subs", out)
    _until(proc, lambda: any(out.glob("*/results.json")))  # mid-run
    cluster.kill_scheduler()
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 2 and "lost the Dask scheduler" in err, err
    before = {p.parent.name: p.read_bytes() for p in out.glob("*/results.json")}
    assert 0 < len(before) < len(ids) and not (out / "grades.csv").exists()
    for name in HOSTS:  # a Dask worker ends with its scheduler, and its run's files with it
        cluster.machines[name].proc.wait(timeout=120)
        assert cluster.machines[name].private_folders() == []

    cluster.start_scheduler()
    cluster.start(*HOSTS)  # the cluster started again, as the client's message says
    proc = cluster.grade(tmp_path / "subs", out, "--resume")
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    assert f"resuming: {len(before)} of {len(ids)} submissions are complete" in err
    for sid, data in before.items():  # kept, not graded again
        assert (out / sid / "results.json").read_bytes() == data
    grades = _grades(out)
    assert sorted(grades) == ids and set(grades.values()) == {str(FULL)}, grades
    assert all(cluster.machines[h].private_folders() == [] for h in HOSTS)
