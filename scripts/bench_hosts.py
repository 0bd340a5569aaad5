"""Grading across separate hosts against the local path on the same cores, in one run.

    .venv/bin/python scripts/bench_hosts.py [--assignment hw1_attention] [-n 300]

As root: the hosts are those of tests/cluster/test_hosts.py (tests/cluster/hosts.py): a
network namespace each on a private bridge, TLS between all of them, a disk of its
own per host. It grades the same generated submissions (autograder/bench.py's, each
stub a mistake with probability 1/2) with the local path (`--jobs 2`), then with this
process as the client, moved into the client's namespace, on a TLS scheduler and two
grading hosts of one thread each, then locally again, and prints each run's wall time
(the template's or hosts' start included, the cluster's start excluded) and
submissions per second, and whether the cluster's grades.csv is the local one. A
benchmark: nothing fails on a slow machine.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from autograder import bench  # noqa: E402
from autograder.engine import batch  # noqa: E402
from autograder.engine import config as config_mod  # noqa: E402
from tests.cluster import hosts  # noqa: E402

HOSTS = ("h1", "h2")
PORT = 8786
CLONE_NEWNET = 0x40000000


def _enter(namespace: str) -> None:
    """Move this process (its only thread so far that matters) into a network namespace."""
    fd = os.open(f"/var/run/netns/{namespace}", os.O_RDONLY)
    try:
        if ctypes.CDLL(None, use_errno=True).setns(fd, CLONE_NEWNET) != 0:
            raise OSError(ctypes.get_errno(), "setns")
    finally:
        os.close(fd)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--assignment", default="hw1_attention")
    parser.add_argument("-n", type=int, default=300)
    args = parser.parse_args()
    if hosts.unavailable():
        print(f"bench_hosts: {hosts.unavailable()}", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="bench-hosts-"))
    network = hosts.Network(["scheduler", "client", *HOSTS])
    machines = []
    try:
        dist = bench.otter_assign(args.assignment, work / "dist")
        folder = work / "submissions"
        bench.make_submissions(dist, args.assignment, config_mod.load(args.assignment).questions,
                               args.n, 0, folder)
        rows = [_local(args.assignment, folder, work / "local-1")]
        certs = hosts.certificates(work / "tls", network.ips)
        scheduler = hosts.Machine(network, "scheduler", work / "scheduler", certs["scheduler"])
        machines.append(scheduler)
        scheduler.start_scheduler(PORT)
        hosts.until(lambda: "Scheduler at:" in scheduler.log.read_text())
        address = f"tls://{network.ips['scheduler']}:{PORT}"
        for name in HOSTS:
            machines.append(hosts.Machine(network, name, work / name, certs[name]))
            machines[-1].start_worker(address)
        hosts.until(lambda: hosts.registered(scheduler.log) == len(HOSTS))
        rows.append(_cluster(args.assignment, folder, work, network, certs, address))
        rows.append(_local(args.assignment, folder, work / "local-2"))
        same = (work / "dask" / "grades.csv").read_bytes() == \
            (work / "local-1" / "grades.csv").read_bytes()
        print(f"{args.assignment}, {args.n} submissions ({os.cpu_count()} cores, load average "
              f"{os.getloadavg()[0]:.1f}); the cluster's grades.csv "
              f"{'is' if same else 'IS NOT'} the local path's")
        print("| configuration | wall | submissions/s |\n|---|---|---|")
        for name, wall in rows:
            print(f"| {name} | {wall:.1f} s | {args.n / wall:.2f} |")
        return 0
    finally:
        for machine in machines:
            machine.stop()
        network.close()
        shutil.rmtree(work, ignore_errors=True)


def _local(assignment: str, folder: Path, out: Path) -> tuple[str, float]:
    start = time.monotonic()
    batch.grade_folder(assignment, folder, out, jobs=len(HOSTS), progress=False)
    return f"local path, --jobs {len(HOSTS)}", time.monotonic() - start


def _cluster(assignment: str, folder: Path, work: Path, network: hosts.Network,
             certs: dict, address: str) -> tuple[str, float]:
    """Graded by this process as the client, from the client's namespace: its Dask
    threads start after the move, so they are all inside."""
    os.environ.update(hosts.client_environment(certs["client"]))
    own = os.open("/proc/self/ns/net", os.O_RDONLY)
    _enter(network.names["client"])
    from autograder.cluster import client
    try:
        start = time.monotonic()
        client.grade_folder(assignment, folder, work / "dask", address, progress=False)
        wall = time.monotonic() - start
    finally:
        ctypes.CDLL(None).setns(own, CLONE_NEWNET)  # back, for the local run after it
        os.close(own)
    return f"separate hosts over TLS, {len(HOSTS)} x 1 thread", wall


if __name__ == "__main__":
    sys.exit(main())
