"""A class stub's mistake driven as the test drove the student's objects: each
recorded call and Step replayed in order, under the worker's seeds, its answers
as the protocol would deliver them; kept for the batch (Driven)."""
from __future__ import annotations

import hashlib
from typing import Callable

import numpy as np

from autograder import protocol
from autograder.engine import numerics
from autograder.engine.diagnoses import replay
from autograder.engine.diagnoses.compare import HANDLE
from autograder.engine.diagnoses.raised import Raised
from autograder.engine.diagnoses.record import Calls, Step, elements
from autograder.engine.kept import Kept
from autograder.engine.numerics import torch  # None without torch (numpy-only installations)


class Driven:
    """The answers of mistakes (and references) driven on a test's inputs, kept for
    the rest of the batch: a class stub's replay builds and runs a model per mistake
    (up to about 0.3 s for hw4's 61), and every submission failing that test was driven
    with the same inputs (the test's weights and ids), so that only the first pays.
    A stub's answers are a function of its inputs (the calls' arguments, the Steps,
    the seeds): the key is their digest, beside the stub itself (held, so that its
    id names no other object). A drive that stopped at a student's answer it does not
    give is kept as far as it went, and driven on only for a student whose answers
    agree that far. At most MAX_ELEMENTS entries of answers are kept, the oldest
    dropped first."""

    MAX_ELEMENTS = 1 << 24
    """About 64 MB of float32 answers. hw4's mistakes and their witnesses (about 150
    stubs) driven on the inputs of its failing model tests keep 4.3 million entries
    in a batch of 20 mixed submissions: a cap below what a batch needs drops the
    oldest drives, which the next submission then drives again (at 1 << 22, 1,160
    of 2,785 drives were such repeats: 7.0 s of CPU where 3.2 s do)."""

    def __init__(self):
        self._kept = Kept(self.MAX_ELEMENTS)  # (id(stub), inputs digest) -> (stub, answers, whole)

    def answers(self, stub: Callable, inputs: bytes | None, record: Calls,
                accept: Callable[[int, object], bool]) -> list | None:
        """The stub's answers, None at the first accept(index, answer) refuses;
        `inputs` is the record's inputs digest (key), None: nothing is kept."""
        key = (id(stub), inputs)
        kept = self._kept.get(key) if inputs else None
        if kept is not None and kept[0] is stub:
            _, answers, whole = kept
            if not all(accept(i, a) for i, a in enumerate(answers)):
                return None
            if whole:
                return answers
        answers, whole = run(stub, record, accept)
        if inputs:
            self._kept.put(key, (stub, answers, whole), elements(answers))
        return answers if whole else None


DRIVEN = Driven()


def key(record: Calls) -> bytes | None:
    """The record's inputs_digest, made once per record (every mistake and stand-in
    driven on it shares it)."""
    if record.digest[0] != len(record.calls):
        record.digest = (len(record.calls), inputs_digest(record))
    return record.digest[1]


def inputs_digest(record: Calls) -> bytes | None:
    """A digest of what drives a replay of the record (every entry's kind, arguments
    and target, the seeds), None when an argument is of a type not digested here
    (the replay is then not kept)."""
    h = hashlib.blake2b(digest_size=20)
    h.update(repr((record.seed, record.seeds)).encode())
    try:
        for entry in record.calls:
            kind = (entry.on, entry.op) if type(entry) is Step else ("call",)
            h.update(repr(kind).encode())
            digest(entry[0], h), digest(entry[1], h)
    except TypeError:
        return None
    return h.digest()


def digest(value, h) -> None:
    """Feeds `value` (plain data: what a replay's arguments are) to the hash `h`,
    its types, dtypes and shapes with its contents; TypeError for anything else."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes)):
        h.update(f"{type(value).__name__}:{value!r};".encode())
    elif isinstance(value, (tuple, list)):
        h.update(f"{type(value).__name__}[{len(value)}".encode())
        for v in value:
            digest(v, h)
        h.update(b"]")
    elif isinstance(value, dict):
        h.update(f"dict[{len(value)}".encode())
        for k, v in value.items():
            digest(k, h), digest(v, h)
        h.update(b"]")
    elif isinstance(value, np.ndarray) and value.dtype.kind in "biufc":
        h.update(f"ndarray:{value.dtype.str}:{value.shape};".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif torch is not None and type(value) is torch.Tensor and value.layout == torch.strided:
        t = value.detach().cpu().contiguous()
        h.update(f"tensor:{t.dtype}:{tuple(t.shape)}:{value.requires_grad};".encode())
        h.update(t.reshape(-1).view(torch.uint8).numpy().tobytes())  # its bytes, any dtype
    else:
        raise TypeError(type(value).__name__)


def run(stub: Callable, record: Calls, accept: Callable) -> tuple[list, bool]:
    """The answers of `stub` (a class, or a function answering objects) driven by
    the recorded calls and Steps, as the worker would deliver them (_delivered),
    under the worker's seeds, and whether they are all there: the drive stops at
    the first answer accept(index, answer) refuses. Its objects live here only:
    each Step acts on the object its `on` entry answered."""
    objects: list = []
    answers: list = []
    seeds = dict(record.seeds)  # of two seeds before one call, the call saw the last
    renamed = (getattr(stub, "__name__", ""), record.name)  # in torch's messages
    with numerics.seeded(0 if record.seed is None else record.seed):
        for i, entry in enumerate(record.calls):
            if i in seeds:
                numerics.seed_global_rngs(seeds[i])
            objects.append(_step(stub, objects, entry, renamed))
            answers.append(_delivered(objects[-1]))
            if not accept(i, answers[-1]):
                return answers, False
    return answers, True


def _step(stub: Callable, objects: list, entry: tuple, renamed: tuple[str, str]):
    """One recorded call or Step replayed: the answer, or Raised."""
    args, kwargs, _ = entry
    if type(entry) is not Step:
        return replay.answer(stub, args, kwargs, renamed=renamed)
    target = objects[entry.on]
    if entry.op == "call":
        return replay.answer(target, args, kwargs, renamed=renamed)
    try:
        return getattr(target, args[0]) if entry.op == "getattr" else list(target)
    except Exception as exc:
        return Raised.of(exc, renamed)


def _delivered(value):
    """The value as the protocol would deliver it from the worker: exact plain types
    (an OrderedDict is a dict, a Parameter a tensor), HANDLE for anything else."""
    if isinstance(value, Raised):
        return value
    try:
        packed, buffers = protocol.pack(value, lambda v: {"t": "handle", "id": 0, "type": ""})
        return protocol.unpack(packed, buffers, lambda h: HANDLE)
    except (ValueError, TypeError, protocol.ProtocolError) as exc:  # nested too deeply
        return Raised.of(exc)
