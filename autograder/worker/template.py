"""The template process: imports numpy/torch once, then forks one worker per
submission on the grader's request (a fork costs milliseconds; a fresh
interpreter importing torch costs seconds).

Control channel (from the grader): an order (protocol.WorkerSpec, SweepOrder,
AuditOrder or ScanOrder, as protocol.encode_order writes it) with the child's socket
attached as a passed descriptor; the reply is the pid of the child's process
group, or "refused <why>" for an order that does not decode (nothing is
forked for it). On the worker's socket the grader then reads {"worker_pid": n}
(the process that runs student code) and {"ready": 1} once the worker is
fully confined, or {"failed": reason} if confinement failed: no student code
runs before "ready". Once its imports are done, the template says first, in
one JSON line on the control channel, where its Python lives
(kernel/allowlist.py); a worker's spec then names the folders it may read,
never which are secret.

What must stay true: the template never runs student code and holds
nothing a worker must not see, since every worker is a copy of its memory
(its live frames and objects included): no spec names a secret path; the
secret paths of a uid's audit reach only the child that audits, through
its own socket, after the fork. The sandbox mode in the spec was chosen
once by the grader (engine/isolation/sandbox.py); this module only carries it out.
"""
from __future__ import annotations

import gc
import importlib
import json
import os
import signal
import socket
import sys
import time

from autograder import protocol
from autograder.kernel import allowlist, disk, landlock, modes, seccomp, sweep, writable
from autograder.worker import confine, permissions, server

MAX_AUDIT_ORDER = 16 << 20
"""Bytes of paths an audit reads from the grader."""


def preload(modules: list[str]) -> None:
    for name in modules:
        importlib.import_module(name)
    if "numpy" in modules:
        # numpy 2 imports numpy.random on first use, and every worker seeds it:
        # imported here, it is not imported again by every worker
        importlib.import_module("numpy.random")
    if "torch" in sys.modules:
        torch = sys.modules["torch"]
        torch.set_num_threads(1)  # one core per worker; the batch runs workers in parallel
        torch.zeros(1) + 1  # first-op initialisation, paid once here and not per worker
    server.seed_everything(0)  # first-call costs paid here; each worker reseeds at its start
    # The template's objects (torch's and numpy's: ~300,000) live as long as any
    # worker: frozen, the garbage collector of a worker never walks them. A full
    # collection over them took 0.1 s of a worker's time and wrote to every
    # page holding one (copy-on-write: memory no longer shared with the template).
    gc.collect()
    gc.freeze()


def run_template(control_fd: int, modules: list[str]) -> None:
    preload(modules)
    serve_template(control_fd)


def run_factory(control_fd: int, modules: list[str]) -> None:
    """The template factory: imports `modules` once, then forks a fresh template
    for every batch of the grader that started it (engine/isolation/template_factory.py),
    a fork where a new interpreter importing torch took seconds of CPU.

    An order is the batch's scratch folder, with the new template's control socket
    attached; the reply is the template's pid. Like a template, it never runs student
    code and holds nothing secret: it was started as a template is (scrubbed
    environment, no descriptor but its socket) and receives nothing but folders."""
    if sys.path and sys.path[0] == os.getcwd():  # `-m` put the start folder first:
        del sys.path[0]  # each template puts its batch's folder there instead
    preload(modules)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # templates that end are reaped at once
    confine.first_to_go_when_out_of_memory(confine.TEMPLATE_OOM_SCORE)
    control = socket.socket(fileno=control_fd)
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(control, 4096, 4)
        except OSError:
            os._exit(0)
        if not msg:  # the grader is gone; its templates see their own sockets close
            os._exit(0)
        folder = msg.decode(errors="replace")
        if len(fds) != 1 or not os.path.isabs(folder) or not os.path.isdir(folder):
            for fd in fds:
                os.close(fd)
            control.sendall(b"refused\n")
            continue
        pid = os.fork()
        if pid == 0:
            try:
                control.close()
                os.setsid()  # as a template started on its own: a session of its own
                os.chdir(folder)
                sys.path.insert(0, folder)  # where `-m` puts a template's start folder
                serve_template(fds[0])  # never returns
            finally:
                os._exit(70)
        os.close(fds[0])
        control.sendall((str(pid) + "\n").encode())


def serve_template(control_fd: int) -> None:
    """The template's loop, its modules imported: fork what the grader orders."""
    # the kernel reaps finished workers, and (as a subreaper) whatever they
    # orphaned, at once: a zombie still counts against its uid's process limit
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    confine.become_subreaper()
    # out of memory, the kernel takes a worker first, then this template (the
    # grader starts another), never the grader
    confine.first_to_go_when_out_of_memory(confine.TEMPLATE_OOM_SCORE)
    control = socket.socket(fileno=control_fd)
    control.sendall(json.dumps({"python": allowlist.python_candidates()}).encode() + b"\n")
    while True:
        try:
            msg, fds, _, _ = socket.recv_fds(control, protocol.MAX_ORDER, 4)
        except OSError:
            os._exit(0)
        if not msg:  # the grader is gone: exit at once (no interpreter teardown), and
            os._exit(0)  # every worker's waiter gets its parent-death signal
        try:
            order = protocol.decode_order(msg)
            if len(fds) != 1:
                raise protocol.ProtocolError(f"{len(fds)} descriptors with one order")
        except protocol.ProtocolError as exc:
            for fd in fds:
                os.close(fd)
            control.sendall(b"refused " + str(exc).replace("\n", " ").encode()[:500] + b"\n")
            continue
        pid = os.fork()
        if pid == 0:
            control.close()
            if isinstance(order, protocol.SweepOrder):
                sweep_uid(fds[0], order)  # never returns
            if isinstance(order, protocol.AuditOrder):
                audit_uid(fds[0], order)  # never returns
            if isinstance(order, protocol.ScanOrder):
                scan_as_uid(fds[0], order)  # never returns
            become_worker(fds[0], order)  # never returns
        os.close(fds[0])
        control.sendall((str(pid) + "\n").encode())


def sweep_uid(fd: int, sweep_order: protocol.SweepOrder) -> None:
    """In the forked child: sweep a worker uid, answer b"1" if it is clean."""
    clean = False
    try:
        clean = sweep.sweep_as(sweep_order.uid, sweep_order.shared, sweep_order.folders)
    finally:
        try:
            os.write(fd, b"1" if clean else b"0")
        finally:
            os._exit(0)


def audit_uid(fd: int, audit: protocol.AuditOrder) -> None:
    """In the forked child: which secret path a worker uid could open, as one
    JSON line {"open": "<path> is readable" or null}; nothing on failure. The
    paths to judge come on `fd` ({"secret": [...], "read_only": [...]}, then
    the end of the grader's writing), never through the template."""
    try:
        order, chunk = b"", b"."
        while chunk and len(order) <= MAX_AUDIT_ORDER:
            chunk = os.read(fd, 1 << 16)
            order += chunk
        paths = json.loads(order)
        found = permissions.open_to(audit.uid, list(paths["secret"]), list(paths["read_only"]))
        os.write(fd, json.dumps({"open": found}).encode() + b"\n")
    finally:
        os._exit(0)


def scan_as_uid(fd: int, scan: protocol.ScanOrder) -> None:
    """In the forked child: every place a worker uid could write, as one JSON
    line (kernel/writable.find); nothing on failure."""
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)  # find's exit status is read
        os.setgroups([])
        os.setresgid(scan.uid, 0, 0)
        os.setresuid(scan.uid, 0, 0)  # real ids: the uid's (access(2) judges by them)
        found = writable.find(owners=(scan.owners[0], scan.owners[1]))
        socket.socket(fileno=fd).sendall(json.dumps(found).encode() + b"\n")
    finally:
        os._exit(0)


def become_worker(fd: int, spec: protocol.WorkerSpec) -> None:
    """In the forked child: confine, then serve until the grader hangs up."""
    code = 0
    sock = None
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.setsid()
        sock = socket.socket(fileno=fd)
        confine.join_cgroups(spec.cgroups)
        confine.first_to_go_when_out_of_memory()
        mode = modes.BY_NAME[spec.sandbox]
        workdir = CONFINE[mode.confine](sock, spec)
        confine.apply_limits(spec.limits)
        confine.scrub_process(sock.fileno(), workdir)
        if mode.seccomp:
            confine.no_new_privs()
            if mode.landlock:
                landlock.restrict(read=[*confine.SYSTEM_DIRS, *spec.read],
                                  write=[workdir], devices=[f"/dev/{d}" for d in confine.DEVICES])
            seccomp.install(allow_exec=spec.limits.exec)
        protocol.send_frame(sock, {"ready": 1})
        sys.modules["otter"] = server.otter_stub()
        if spec.forbid:
            for name in spec.forbid:
                sys.modules.pop(name, None)
            sys.meta_path.insert(0, server.ForbiddenImports(spec.forbid))
        server.Server(sock, spec.seed).serve()
    except BaseException as exc:
        code = 70
        try:  # before any student code: the reason is the grader's to read
            protocol.send_frame(sock, {"failed": f"{type(exc).__name__}: {exc}"[:300]})
        except BaseException:
            pass
    finally:
        os._exit(code)


def _namespaces(sock, spec: protocol.WorkerSpec, user_ns: bool = False) -> str:
    sent = os.pipe()
    child = confine.isolate(spec, user_ns)
    if child:  # the waiter outside the namespace: when it dies, the namespace dies
        confine.parent_death_signal(signal.SIGKILL)
        _send_pid(sock, child, sent)
        os.waitpid(child, 0)
        os._exit(0)
    _after_pid_sent(sent)
    confine.enter_new_root(spec)
    if user_ns:
        confine.drop_capabilities()
    else:
        confine.become(spec.uid)
    confine.parent_death_signal(signal.SIGKILL)
    return confine.WORKDIR_IN_ROOT


def _waiter(sock, spec: protocol.WorkerSpec) -> str:
    """No namespaces: a root waiter that adopts every orphan of the worker
    (a subreaper), meters its files, and kills every process of the worker's
    uid before it goes if they pass disk_mb or the template dies; the worker
    drops to that uid."""
    confine.become_subreaper()
    sent = os.pipe()
    child = os.fork()
    if child:
        signal.signal(signal.SIGTERM, lambda *_: _kill_uid_and_exit(spec.uid))
        confine.parent_death_signal(signal.SIGTERM)
        _send_pid(sock, child, sent)
        _reap_within_disk(spec)  # never returns
    _after_pid_sent(sent)
    confine.become(spec.uid)
    confine.parent_death_signal(signal.SIGKILL)
    return spec.workdir


def _reap_within_disk(spec: protocol.WorkerSpec) -> None:
    """The waiter's loop: reap the worker and every adopted orphan until none is
    left; when the worker's files pass disk_mb (kernel/disk.py: it writes to
    the machine's disk, where RLIMIT_FSIZE bounds each file, not their
    number), kill every process of its uid."""
    mode = modes.BY_NAME[spec.sandbox]
    meter = disk.Meter(disk.folders(spec.workdir, spec.shared), spec.uid,
                       spec.limits.disk_mb * 2**20)
    while True:
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            os._exit(0)
        if mode.meters_disk and meter.over():
            _kill_uid_and_exit(spec.uid)
        time.sleep(disk.POLL_SECONDS)


def _send_pid(sock, child: int, sent: tuple[int, int]) -> None:
    """The waiter's one frame; closing the pipe then lets the worker go on,
    so that its own frames never cross this one on the socket."""
    protocol.send_frame(sock, {"worker_pid": child})
    sock.close()
    for fd in sent:
        os.close(fd)


def _after_pid_sent(sent: tuple[int, int]) -> None:
    os.close(sent[1])
    os.read(sent[0], 1)  # end of file: the waiter sent its frame (or died)
    os.close(sent[0])


def _kill_uid_and_exit(uid: int) -> None:
    confine.become(uid)
    sweep.kill_all(uid, sweep.SECONDS)
    os._exit(0)


def _none(sock, spec: protocol.WorkerSpec) -> str:
    if spec.uid is not None:  # root: a uid of its own is the one thing left to give
        confine.become(spec.uid)
    protocol.send_frame(sock, {"worker_pid": os.getpid()})
    return spec.workdir


CONFINE = {  # kernel/modes.py: Mode.confine
    "namespaces": _namespaces,
    "userns": lambda sock, spec: _namespaces(sock, spec, user_ns=True),
    "waiter": _waiter,
    "none": _none,
}


def main(argv: list[str]) -> None:
    """`CONTROL_FD [MODULES]` starts a template, `factory CONTROL_FD [MODULES]` a factory."""
    run = run_template
    if argv and argv[0] == "factory":
        run, argv = run_factory, argv[1:]
    control_fd = int(argv[0])
    modules = [m for m in argv[1].split(",") if m] if len(argv) > 1 else []
    run(control_fd, modules)
