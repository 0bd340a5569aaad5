"""Does the worker answer each protocol operation with its op_<name> method, and
refuse any other name? (worker/server.py, protocol.OPERATIONS)"""
from __future__ import annotations

import pytest

from autograder import protocol
from autograder.worker.server import Server


def bare_server(namespace: dict) -> Server:
    """A server without a socket or the stdout it would take over."""
    server = Server.__new__(Server)
    server.namespace, server.handles, server.next_id = namespace, {}, 1
    return server


def test_every_operation_has_its_method_and_no_method_is_unnamed():
    methods = {name.removeprefix("op_") for name in dir(Server) if name.startswith("op_")}
    assert methods == set(protocol.OPERATIONS)
    assert len(set(protocol.OPERATIONS)) == len(protocol.OPERATIONS)


def test_requests_are_dispatched_by_name():
    server = bare_server({"x": 41, "f": lambda v: v + 1})
    assert server.dispatch(protocol.HAS, {"name": "x"}, []) is True
    assert server.dispatch(protocol.GET, {"name": "x"}, []) == 41
    enc = protocol.Encoder(server.to_handle)
    header = {"target": {"name": "f"}, "args": enc.encode((41,)), "kwargs": enc.encode({})}
    assert server.dispatch(protocol.CALL, header, enc.buffers) == 42


@pytest.mark.parametrize("op", ["nope", "__init__", "dispatch", None, ["get"], protocol.SWEEP])
def test_any_other_name_is_refused(op):
    with pytest.raises(ValueError, match="unknown request"):
        bare_server({}).dispatch(op, {"name": "x"}, [])
