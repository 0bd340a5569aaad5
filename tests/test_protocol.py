"""Does the wire format carry plain data faithfully and refuse everything else?"""
from __future__ import annotations

import json
import socket
import struct
from collections import OrderedDict

import numpy as np
import pytest
import torch

from autograder import protocol


def roundtrip(value):
    handles = []
    obj, bufs = protocol.pack(value, lambda v: handles.append(v) or
                              {"t": "handle", "id": len(handles), "type": type(v).__name__})
    a, b = socket.socketpair()
    with a, b:
        protocol.send_frame(a, {"ok": obj, "nbuf": len(bufs)}, bufs)
        header, buffers = protocol.recv_frame(b)
    return protocol.unpack(header["ok"], buffers, lambda h: ("handle", h.id, h.type_name))


@pytest.mark.parametrize("value", [
    None, True, 0, -7, 2**70, 1.5, "héllo", [1, [2, (3, "x")]], (1,), {"a": 1, 2: [3]},
    float("inf"), float("-inf"),
])
def test_plain_values_round_trip(value):
    assert roundtrip(value) == value and type(roundtrip(value)) is type(value)


def test_nan_round_trips():
    assert np.isnan(roundtrip(float("nan")))


def test_arrays_tensors_and_scalars_keep_dtype_shape_and_values():
    arr = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    got = roundtrip(arr)
    assert got.dtype == np.int16 and got.shape == (2, 3, 4) and (got == arr).all()
    t = torch.randn(3, 5, generator=torch.Generator().manual_seed(0)).requires_grad_()
    got = roundtrip(t)
    assert got.dtype == torch.float32 and got.requires_grad and torch.equal(got, t.detach())
    assert roundtrip(torch.tensor(3.5, dtype=torch.bfloat16)).dtype == torch.bfloat16
    assert roundtrip(torch.nn.Parameter(torch.ones(2))).tolist() == [1.0, 1.0]
    s = roundtrip(np.int64(5))
    assert type(s) is np.int64 and s == 5
    assert roundtrip(torch.zeros(0, 3)).shape == (0, 3)


def test_ordered_dict_keeps_order():
    sd = OrderedDict([("b", 1), ("a", 2)])
    assert list(roundtrip(sd)) == ["b", "a"]


def test_other_objects_become_handles():
    assert roundtrip(object())[0] == "handle"
    assert roundtrip(np.array([object()], dtype=object))[0] == "handle"


@pytest.mark.parametrize("bad", [
    {"t": "nd", "dtype": "object", "shape": [1], "buf": 0},
    {"t": "nd", "dtype": "float64", "shape": [3], "buf": 0},   # 8 bytes for 3 float64
    {"t": "nd", "dtype": "float64", "shape": [-1], "buf": 0},
    {"t": "pickle", "v": "gASV"},
    {"t": "float", "v": "__import__('os')"},
    {"t": "dict", "v": [[{"t": "list", "v": []}, 1]]},           # unhashable key
    ["untagged list"],
])
def test_hostile_values_are_refused(bad):
    with pytest.raises(protocol.ProtocolError):
        protocol.unpack(bad, [b"\0" * 8], lambda h: h)


def test_oversized_and_broken_frames_are_refused():
    a, b = socket.socketpair()
    with a, b:
        a.sendall(struct.pack(">I", protocol.MAX_FRAME + 1))
        with pytest.raises(protocol.ProtocolError):
            protocol.recv_frame(b)
    a, b = socket.socketpair()
    with a, b:
        body = b"not json"
        a.sendall(struct.pack(">I", len(body)) + body)
        with pytest.raises(protocol.ProtocolError):
            protocol.recv_frame(b)
    a, b = socket.socketpair()
    with a, b:
        a.sendall(struct.pack(">I", 2) + b"{}")
        a.close()
        assert protocol.recv_frame(b) == ({}, [])
        with pytest.raises(EOFError):
            protocol.recv_frame(b)


def test_nesting_is_bounded():
    deep = {"t": "list", "v": []}
    for _ in range(60):
        deep = {"t": "list", "v": [deep]}
    with pytest.raises(protocol.ProtocolError):
        protocol.unpack(json.loads(json.dumps(deep)), [], lambda h: h)
