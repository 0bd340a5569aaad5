"""Do the template's orders (protocol.WorkerSpec, SweepOrder, AuditOrder) travel
in one encoding that gives back what was sent, and is every order that is not
one refused, naming the field, on both sides of the control channel?"""
from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys

import pytest

from autograder import paths, protocol

LIMITS = protocol.WorkerLimits(cpu_seconds=300, disk_mb=64, processes=4, as_mb=256, nproc=5,
                               exec=False)
SPEC = protocol.WorkerSpec(sandbox="none", uid=None, workdir="/tmp/w1", read=("/usr/lib/python3",),
                           cgroups=(), seed=7, limits=LIMITS, forbid=("torch",),
                           shared=("/tmp", "/run/lock"))


def plain(order) -> dict:
    return json.loads(protocol.encode_order(order))


@pytest.mark.parametrize("order", [
    SPEC, dataclasses.replace(SPEC, uid=250001, limits=dataclasses.replace(LIMITS, nproc=None)),
    protocol.SweepOrder(uid=250001, shared=True, folders=("/tmp", "/run/lock")),
    protocol.AuditOrder(uid=250002), protocol.ScanOrder(uid=250003, owners=(200000, 300000))])
def test_every_order_comes_back_as_it_was_sent(order):
    back = protocol.decode_order(protocol.encode_order(order))
    assert back == order and type(back) is type(order)
    assert plain(order)["op"] in protocol.ORDERS


def test_a_spec_s_lists_come_back_as_tuples():
    back = protocol.decode_order(protocol.encode_order(SPEC))
    assert type(back.read) is tuple and type(back.forbid) is tuple
    assert type(back.limits) is protocol.WorkerLimits


def with_(changes: dict, limits: dict | None = None) -> bytes:
    """SPEC's encoding with fields changed (`...`: left out), of its limits too."""
    data = {**plain(SPEC), **changes}
    if limits is not None:
        data["limits"] = _without({**data["limits"], **limits})
    return json.dumps(_without(data)).encode()


def _without(data: dict) -> dict:
    return {k: v for k, v in data.items() if v is not ...}


@pytest.mark.parametrize("raw, why", [
    (b"not json", "not JSON"),
    (b"[1, 2]", "not a JSON object"),
    (b'{"uid": 1}', "unknown order None"),
    (b'{"op": "run_cell", "uid": 1}', "unknown order 'run_cell'"),
    (b'{"op": ["spawn"], "uid": 1}', "unknown order ['spawn']"),
    (with_({"seed": ...}), "WorkerSpec: missing field(s) seed"),
    (with_({"colour": "red"}), "WorkerSpec: unknown field(s) colour"),
    (with_({"seed": ..., "colour": 1}), "missing field(s) seed; unknown field(s) colour"),
    (with_({"seed": "7"}), "WorkerSpec.seed: expected int, got str"),
    (with_({"seed": True}), "WorkerSpec.seed: expected int, got bool"),
    (with_({"uid": 1.0}), "WorkerSpec.uid: expected int | None, got float"),
    (with_({"read": "/usr"}), "WorkerSpec.read: expected tuple[str, ...], got str"),
    (with_({"read": ["/usr", 3]}), "WorkerSpec.read: expected tuple[str, ...]"),
    (with_({"limits": [1, 2]}), "WorkerSpec.limits: expected an object, got list"),
    (with_({}, {"exec": 0}), "WorkerSpec.limits.exec: expected bool, got int"),
    (with_({}, {"cpu_seconds": 1.5}), "WorkerSpec.limits.cpu_seconds: expected int, got float"),
    (with_({}, {"as_mb": ...}), "WorkerSpec.limits: missing field(s) as_mb"),
    (b'{"op": "sweep", "uid": 1, "shared": "yes", "folders": []}',
     "SweepOrder.shared: expected bool, got str"),
    (b'{"op": "sweep", "uid": 1, "shared": true, "folders": "/tmp"}',
     "SweepOrder.folders: expected tuple[str, ...], got str"),
    (b'{"op": "scan", "uid": "0", "owners": [1, 2]}', "ScanOrder.uid: expected int, got str"),
    (b'{"op": "scan", "uid": 0}', "ScanOrder: missing field(s) owners"),
    (b'{"op": "audit", "uid": 1, "secret": ["/root"]}', "AuditOrder: unknown field(s) secret"),
    (b" " * (protocol.MAX_ORDER + 1), "at most"),
])
def test_an_order_that_is_not_one_is_refused_naming_why(raw, why):
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.decode_order(raw)
    assert why in str(refused.value)


def test_the_grader_cannot_send_a_mistyped_order():
    """Checked before anything is sent: a float limit (`--limit cpu_seconds=1.5`)
    the kernel's setrlimit would refuse, a list where a tuple is declared."""
    with pytest.raises(protocol.ProtocolError, match=r"WorkerSpec\.limits\.cpu_seconds"):
        protocol.encode_order(dataclasses.replace(
            SPEC, limits=dataclasses.replace(LIMITS, cpu_seconds=1.5)))
    with pytest.raises(protocol.ProtocolError, match=r"WorkerSpec\.read"):
        protocol.encode_order(dataclasses.replace(SPEC, read=["/usr"]))
    with pytest.raises(protocol.ProtocolError, match="not an order: dict"):
        protocol.encode_order({"op": "sweep", "uid": 1, "shared": True})


@pytest.fixture
def template():
    """A template with nothing to preload (it starts in a fraction of a second)
    and its control channel, its first line (where its Python lives) read."""
    ours, theirs = socket.socketpair()
    proc = subprocess.Popen([sys.executable, "-m", "autograder.worker", str(theirs.fileno()), ""],
                            pass_fds=[theirs.fileno()], cwd=str(paths.ROOT),
                            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                                 "PYTHONPATH": str(paths.ROOT)})
    theirs.close()
    ours.settimeout(60)
    try:
        assert "python" in json.loads(_line(ours))
        yield ours
    finally:
        ours.close()
        proc.wait(timeout=10)


def _line(sock: socket.socket) -> bytes:
    line = b""
    while not line.endswith(b"\n"):
        chunk = sock.recv(1)
        assert chunk, "the template hung up"
        line += chunk
    return line


def _send(control: socket.socket, order: bytes) -> tuple[bytes, socket.socket]:
    ours, theirs = socket.socketpair()
    with theirs:
        socket.send_fds(control, [order], [theirs.fileno()])
    return _line(control), ours


def test_the_template_refuses_a_bad_order_forks_nothing_and_goes_on(template, tmp_path):
    reply, child = _send(template, with_({"colour": "red"}))
    assert reply.startswith(b"refused ") and b"unknown field(s) colour" in reply
    child.settimeout(5)
    assert child.recv(1) == b""  # its descriptor closed: no child holds it
    reply, _ = _send(template, b'{"op": "sweep", "uid": 1}')
    assert reply == b"refused SweepOrder: missing field(s) folders, shared\n"
    # a good order still starts a worker (mode none: no privilege needed)
    spec = dataclasses.replace(SPEC, workdir=str(tmp_path), read=(), forbid=())
    reply, worker = _send(template, protocol.encode_order(spec))
    with worker:
        assert int(reply) > 0
        worker.settimeout(30)
        header, _ = protocol.recv_frame(worker)
        assert header["worker_pid"] > 0
        assert protocol.recv_frame(worker)[0] == {"ready": 1, "nbuf": 0}
