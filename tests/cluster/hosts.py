"""Separate grading hosts on this one machine, for tests/cluster/test_hosts.py.

Each host is a network namespace of its own, joined to the others by a veth pair
on a bridge that lives in a namespace of its own too (the hub): the addresses
(SUBNET.1, .2, ...) exist only inside those namespaces, and nothing is routed
out of them. This machine's own interfaces are never touched.

A grading host (`Machine.start_worker`) also runs in a mount and PID namespace
of its own, its disk a folder of its own mounted over /tmp: its copy of the
grader (gradescope/package.engine_files: the package without any assignment's
folder, as docs/scaling.md says a host needs), the requirements (this
environment, mounted read-only at /tmp/venv), its TLS files and its temporary folder. The
client's checkout and every other host's folder are hidden from it. Killing it
(`Machine.kill`) kills the PID namespace's first process, and with it every
process the host started (its Dask worker, templates, sandboxed workers) at
once, as a machine that dies.

Not reproduced: separate kernels and disks (the hosts share this machine's
kernel, page cache, uids and cgroups), a network that loses packets, a host
that vanishes without its sockets being closed (here the kernel closes them).
"""
from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

from autograder import paths
from autograder.gradescope import package

SUBNET = "10.231.0"
TOOLS = ("ip", "nsenter", "unshare", "openssl")


def unavailable() -> str | None:
    """Why separate hosts cannot be made here, or None."""
    if os.geteuid() != 0:
        return "makes network, mount and PID namespaces as root (CI does)"
    missing = [t for t in TOOLS if not shutil.which(t)]
    return f"needs {', '.join(missing)}" if missing else None


def until(condition, seconds: float = 120, stopped=lambda: None, interval: float = 0.1) -> None:
    """Poll condition() until it is true; AssertionError once `seconds` have passed, or
    as soon as stopped() gives a reason it never will be (a process that ended)."""
    deadline = time.monotonic() + seconds
    while not condition():
        reason = stopped()
        if reason is not None or time.monotonic() > deadline:
            raise AssertionError(reason or f"not within {seconds:g} s")
        time.sleep(interval)


def registered(log: Path) -> int:
    """Workers a scheduler has now, by its log (since it last started)."""
    text = log.read_text().rpartition("Scheduler at:")[2]
    return text.count("Register worker") - text.count("Remove worker")


def _run(*argv: str) -> None:
    subprocess.run(argv, check=True, capture_output=True, timeout=60)


class Network:
    """One namespace per role, each with one address on a private bridge."""

    def __init__(self, roles: list[str]):
        self.token = uuid.uuid4().hex[:6]
        self.hub = f"ag{self.token}-hub"
        self.names: dict[str, str] = {}
        self.ips: dict[str, str] = {}
        try:
            _run("ip", "netns", "add", self.hub)
            _run("ip", "-n", self.hub, "link", "add", "br0", "type", "bridge")
            _run("ip", "-n", self.hub, "link", "set", "br0", "up")
            for n, role in enumerate(roles, start=1):
                self._add(role, n)
        except BaseException:
            self.close()
            raise

    def _add(self, role: str, n: int) -> None:
        name = self.names[role] = f"ag{self.token}-{role}"
        self.ips[role] = f"{SUBNET}.{n}"
        _run("ip", "netns", "add", name)
        port = f"ag{self.token}p{n}"  # the bridge's side, in the hub
        _run("ip", "link", "add", port, "netns", self.hub, "type", "veth", "peer", "name",
             "eth0", "netns", name)
        _run("ip", "-n", self.hub, "link", "set", port, "master", "br0", "up")
        _run("ip", "-n", name, "addr", "add", f"{self.ips[role]}/24", "dev", "eth0")
        _run("ip", "-n", name, "link", "set", "eth0", "up")
        _run("ip", "-n", name, "link", "set", "lo", "up")

    def inside(self, role: str) -> list[str]:
        """The prefix that runs a command in `role`'s namespace. (Not `ip netns exec`,
        which mounts a sysfs of its own over /sys, and with it hides the cgroups a
        host's sandbox bounds memory with.)"""
        return ["nsenter", f"--net=/var/run/netns/{self.names[role]}"]

    def close(self) -> None:
        """Kill whatever still runs in the namespaces, then delete them."""
        for name in [*self.names.values(), self.hub]:
            listed = subprocess.run(["ip", "netns", "pids", name], capture_output=True,
                                    text=True).stdout.split()
            for pid in listed:
                try:
                    os.kill(int(pid), signal.SIGKILL)
                except (ProcessLookupError, ValueError):
                    pass
            subprocess.run(["ip", "netns", "del", name], capture_output=True)


def certificates(folder: Path, ips: dict[str, str]) -> dict[str, dict[str, Path]]:
    """A CA, and for each role a key and a certificate naming its address (server
    and client use): {role: {"ca", "cert", "key"}}, made by openssl."""
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)
    folder.mkdir(parents=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out",
            "ca.pem", "-days", "2", "-subj", "/CN=grading-ca")
    made = {}
    for role, ip in ips.items():
        (folder / f"{role}.cnf").write_text(f"subjectAltName=IP:{ip}\n"
                                            "extendedKeyUsage=serverAuth,clientAuth\n")
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{role}.key", "-out",
                f"{role}.csr", "-subj", f"/CN={ip}")
        openssl("x509", "-req", "-in", f"{role}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-out", f"{role}.pem", "-days", "2", "-extfile",
                f"{role}.cnf")
        made[role] = {"ca": folder / "ca.pem", "cert": folder / f"{role}.pem",
                      "key": folder / f"{role}.key"}
    return made


def tls_options(files: dict[str, Path], under: str | Path) -> list[str]:
    """dask scheduler/worker options for TLS files found below `under`."""
    return ["--tls-ca-file", f"{under}/ca.pem", "--tls-cert", f"{under}/{files['cert'].name}",
            "--tls-key", f"{under}/{files['key'].name}"]


def client_environment(files: dict[str, Path]) -> dict[str, str]:
    """The client's TLS files, as Dask's configuration reads them from the environment."""
    return {"DASK_DISTRIBUTED__COMM__TLS__CA_FILE": str(files["ca"]),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": str(files["cert"]),
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": str(files["key"])}


class Machine:
    """A host's own disk (`folder`, its /tmp) and its Dask process (a worker or the
    scheduler, which unpickles the task graph and so needs the grader's code too)."""

    def __init__(self, network: Network, role: str, folder: Path,
                 certs: dict[str, Path], edit=None):
        self.network, self.role, self.folder = network, role, folder
        (folder / "venv").mkdir(parents=True)  # where this environment is mounted
        (folder / "tmp").mkdir(mode=0o1777)
        (folder / "tls").mkdir()
        for path in (certs["ca"], certs["cert"], certs["key"]):
            shutil.copy(path, folder / "tls" / path.name)
        for path in package.engine_files():  # the grader, and nothing of any course
            target = folder / "code" / path.relative_to(paths.ROOT)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
        if edit is not None:  # another version of the grader's code on this host
            edit(folder / "code" / paths.PACKAGE.name)
        self.tls = tls_options(certs, "/tmp/tls")
        self.proc: subprocess.Popen | None = None
        self.log = folder / "dask.log"

    def private_folders(self) -> list[Path]:
        """The hosts' private folders (cluster/host.py) in this machine's temporary folder."""
        from autograder.cluster import host
        return sorted(self.folder.glob(f"tmp/{host.FOLDER_PREFIX}*"))

    def start_worker(self, scheduler: str) -> subprocess.Popen:
        """A Dask worker of one thread, no nanny, on this host's address."""
        return self._start(["distributed.cli.dask_worker", scheduler, "--host",
                            self.network.ips[self.role], "--nthreads", "1", "--no-nanny",
                            "--no-dashboard", "--death-timeout", "120", *self.tls])

    def start_scheduler(self, port: int) -> subprocess.Popen:
        """The Dask scheduler, TLS only, on this host's address."""
        return self._start(["distributed.cli.dask_scheduler", "--host",
                            self.network.ips[self.role], "--port", str(port), "--protocol",
                            "tls", "--no-dashboard", *self.tls])

    def _start(self, module_and_args: list[str]) -> subprocess.Popen:
        hidden = [] if paths.ROOT.is_relative_to("/tmp") else [paths.ROOT]  # else under /tmp
        shell = "\n".join([
            f"mount --bind {sys.prefix} {self.folder}/venv",  # the requirements, installed:
            f"mount -o remount,bind,ro {self.folder}/venv",  # nothing a host may change
            f"mount --rbind {self.folder} /tmp",  # this host's disk; the others' are hidden
            *(f"mount -t tmpfs -o mode=0755 none {p}" for p in hidden),  # the client's checkout
            "mount -t tmpfs -o mode=1777 none /var/tmp",
            "cd /tmp",
            "exec env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 TMPDIR=/tmp/tmp "
            "PYTHONPATH=/tmp/code PYTHONDONTWRITEBYTECODE=1 /tmp/venv/bin/python -m "
            + shlex.join(module_and_args),
        ])
        with open(self.log, "a") as log:
            self.proc = subprocess.Popen(
                [*self.network.inside(self.role), "unshare", "--mount", "--pid", "--fork",
                 "--kill-child", "--mount-proc", "sh", "-ec", shell],
                stdout=log, stderr=log, start_new_session=True)
        return self.proc

    def sees(self, folder: str | Path) -> list[str]:
        """What this host lists in `folder` (from inside its mount namespace)."""
        return sorted(self._inside("ls", "-A", str(folder)).stdout.split())

    def may_write(self, path: str | Path) -> bool:
        """Whether this host (as root) can create the file `path`."""
        return self._inside("touch", str(path)).returncode == 0

    def _inside(self, *argv: str) -> subprocess.CompletedProcess:
        with open(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children") as f:
            first = f.read().split()[0]  # the namespace's first process
        return subprocess.run(["nsenter", f"--target={first}", "--mount", *argv],
                              capture_output=True, text=True, timeout=30)

    def kill(self) -> float:
        """Kill every process of this host at once; the monotonic time it was done."""
        self.proc.send_signal(signal.SIGKILL)  # unshare: its child, the namespace's
        self.proc.wait()  # first process, dies with it (--kill-child), and so does the
        return time.monotonic()  # whole PID namespace

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.kill()
