"""The reference attention that TinySelfAttn's tests lend the student's module,
answering only what the module's forward on the test's own input can ask.

A lent function answers whatever the worker sends, and the student's code
chooses what that is: q, k and v kept from scaled_dot_product_attention's
hidden tests would get that test's expected weights back. So a test declares
each input and weights it runs the module on (`allow`), and a call is
answered only when every row of q, k and v (a vector along the last axis) is
one head of one position's projections qkv(x), however a module splits them
into heads: d consecutive entries at a multiple of d, or every (h/d)-th entry
of the q, k or v block (heads interleaved, a mistake the values tests must
grade, not this function refuse).

What must stay true: no other row is answered, whatever the mask; a call's
work (the scores and output it would allocate, broadcasting included, and
the comparisons that check its rows) is counted from the shapes before any is
done, and beyond its bound the call is refused.

Every submission runs its module on the test's own inputs and weights, and
correct modules send the same q, k and v to the last bit: the tables of allowed
rows and each check's verdict are kept for the batch (KEPT_BYTES), keyed by a
digest of the projections and rows they are computed from, so that a batch
computes each once.
"""
from __future__ import annotations

import hashlib
import math

import numpy as np
import torch
from torch.nn import functional as F

from autograder.engine.diagnoses import drive
from autograder.engine.kept import Kept

MAX_SCORES = 1 << 16
"""Entries of the scores, of the output and of the mask's broadcast that one call
may ask for (TinySelfAttn's tests need fewer than 1,200)."""
MAX_COMPARED = 1 << 22
"""Entries compared to check one call's rows against the allowed ones (the tests
need about 350,000)."""
RTOL, ATOL = 1e-4, 1e-5
"""A row matches a projection up to float rounding (x @ W.T and nn.Linear differ
in the last bits), never by a value of its own."""
KEPT_BYTES = 16 << 20
"""Tables and verdicts kept per grader process, the oldest dropped first
(the tests' come to a few hundred KB)."""
REFUSED = ("the grader's attention, lent to TinySelfAttn for this test, answers only q, k "
           "and v made of this test's projections qkv(x), each row one head of one "
           "position; {name} is not")


class LentAttention:
    """reference.scaled_dot_product_attention for the rows `allow` declared."""

    def __init__(self, attention):
        self._attention = attention
        self._projections: list[torch.Tensor] = []  # each (positions, 3h)
        self._keys: list[bytes] = []  # the projections' digests
        self._key = b""  # a digest of them all, in order: what every check reads

    def allow(self, x: torch.Tensor, state: dict) -> None:
        """The module is about to run on x with the weights `state` (the test's own,
        as loaded): its qkv projections are what a forward may send. A state
        without a qkv.weight of shape (3h, h) allows nothing."""
        weight, bias = state.get("qkv.weight"), state.get("qkv.bias")
        h = x.shape[-1]
        if not isinstance(weight, torch.Tensor) or tuple(weight.shape) != (3 * h, h):
            return
        if not isinstance(bias, torch.Tensor) or tuple(bias.shape) != (3 * h,):
            bias = None
        with torch.no_grad():
            projected = F.linear(x.double(), weight.double(),
                                 None if bias is None else bias.double()).reshape(-1, 3 * h)
        key = _digest(projected.numpy())  # an array's digest: a tensor's costs more than the linear
        if key not in self._keys:  # a test runs one input several times
            self._projections.append(projected)
            self._keys.append(key)
            self._key = _digest(*self._keys)

    def __call__(self, q, k, v, mask=None):
        _check_types(q, k, v, mask)
        _check_work(q, k, v, mask)
        if not (q.shape[-1] == v.shape[-1] and self._allowed(q, k, v)):  # one pass, usually
            for t, name in ((q, "q"), (k, "k"), (v, "v")):
                if not self._allowed(t):
                    raise ValueError(REFUSED.format(name=name))
        with torch.no_grad():
            return self._attention(q, k, v, mask)

    def _allowed(self, *tensors: torch.Tensor) -> bool:
        """Whether every row of the tensors (all of one last dimension d) is allowed."""
        d = tensors[0].shape[-1]
        rows = torch.cat([t.detach().reshape(-1, d) for t in tensors]).double().numpy()
        return _kept(_digest(b"verdict", self._key, rows), lambda: self._check(rows, d))

    def _check(self, rows: np.ndarray, d: int) -> bool:
        allowed, sums, width = self._allowed_rows(d)
        if len(rows) * len(allowed) * d > MAX_COMPARED:
            raise ValueError("q, k or v has more rows than TinySelfAttn's forward sends")
        if not len(allowed):
            return False
        # A row close to an allowed one, entry by entry, has a sum within `width` of
        # its sum: only the allowed rows whose sums are that near are compared (one or
        # two each, not all of them; the same verdict). In numpy: a call costs torch's
        # dispatch several times over, for arrays this small.
        totals = rows.sum(-1)
        lo = np.searchsorted(sums, totals - width)
        counts = np.searchsorted(sums, totals + width, side="right") - lo
        if not (counts > 0).all():  # nan and inf rows included
            return False
        row = np.repeat(np.arange(len(rows)), counts)
        candidate = np.repeat(lo - (counts.cumsum() - counts), counts) + np.arange(len(row))
        found = np.zeros(len(rows), dtype=bool)
        step = max(1, MAX_COMPARED // (4 * d))
        for at in range(0, len(row), step):
            r, near = row[at:at + step], allowed[candidate[at:at + step]]
            found[r[(np.abs(rows[r] - near) <= ATOL + RTOL * np.abs(near)).all(-1)]] = True
        return bool(found.all())

    def _allowed_rows(self, d: int) -> tuple[np.ndarray, np.ndarray, float]:
        """Every allowed row of d entries, sorted by its sum; the sums; and how far
        the sum of a row that matches one (within RTOL and ATOL) can be from its sum."""
        return _kept(_digest(b"rows", self._key, d), lambda: _table(self._projections, d))


def _table(projections: list[torch.Tensor], d: int) -> tuple[np.ndarray, np.ndarray, float]:
    rows = torch.cat([_heads(p, d) for p in projections]).numpy() \
        if projections else np.empty((0, d))
    sums = rows.sum(-1)
    order = np.argsort(sums, kind="stable")
    largest = float(np.abs(rows).sum(-1).max()) if len(rows) else 0.0
    width = (d * ATOL + RTOL * largest) * (1 + 1e-6)  # float64's rounding of the sums
    rows, sums = rows[order], sums[order]
    rows.flags.writeable = sums.flags.writeable = False  # kept for the batch: only read
    return rows, sums, width


_KEPT = Kept(KEPT_BYTES)


def _kept(key: bytes, make):
    """The value kept under `key`, else make()'s, kept (two threads that miss one key
    both make it: the same value; one that raises keeps nothing)."""
    value = _KEPT.get(key)
    if value is None:
        value = make()
        _KEPT.put(key, value, 64 + sum(v.nbytes if isinstance(v, np.ndarray) else 8
                                       for v in (value if isinstance(value, tuple) else (value,))))
    return value


def _digest(*parts) -> bytes:
    """A digest of plain data: bytes, numbers, tensors and arrays with their dtypes and shapes."""
    h = hashlib.blake2b(digest_size=20)
    drive.digest(parts, h)
    return h.digest()


def _heads(projected: torch.Tensor, d: int) -> torch.Tensor:
    """Every row of d entries a head split can take from each position's projections
    (positions, 3h): d consecutive entries at a multiple of d, and, where d divides h,
    every (h/d)-th entry of the q, k or v block."""
    width = projected.shape[-1]
    parts = [projected[:, start:start + d] for start in range(0, width - d + 1, d)]
    h = width // 3
    if width % 3 == 0 and h % d == 0 and h // d > 1:
        parts += [projected[:, block * h + i:(block + 1) * h:h // d]
                  for block in range(3) for i in range(h // d)]
    return torch.cat(parts) if parts else projected.new_empty(0, d)


def _check_types(q, k, v, mask) -> None:
    for t, least in ((q, 2), (k, 2), (v, 2)) + (() if mask is None else ((mask, 1),)):
        if not isinstance(t, torch.Tensor) or not t.is_floating_point() \
                or not least <= t.dim() <= 4:
            raise TypeError("q, k and v must be float tensors of 2 to 4 dimensions, "
                            "the mask one of at most 4")
    if q.shape[-1] != k.shape[-1] or k.shape[-2] != v.shape[-2] or 0 in q.shape + k.shape + v.shape:
        raise ValueError("q, k and v must be (..., n_q, d), (..., n_k, d) and (..., n_k, d_v)")


def _check_work(q, k, v, mask) -> None:
    """Refuse, from the shapes alone, a call whose broadcast scores, mask or output
    exceed MAX_SCORES entries (q (1, 1, 10^4, 1) with k (10^4, 1, 1, 1) is 80 KB of
    arguments and 10^8 scores)."""
    batch = _broadcast(q.shape[:-2], k.shape[:-2])
    scores = _broadcast((*batch, q.shape[-2], k.shape[-2]), () if mask is None else mask.shape)
    out = (*_broadcast(scores[:-2], v.shape[:-2]), q.shape[-2], v.shape[-1])
    if max(math.prod(scores), math.prod(out)) > MAX_SCORES:
        raise ValueError(f"q, k, v and the mask broadcast to more than {MAX_SCORES} scores or "
                         "outputs: far more than TinySelfAttn's forward sends")


def _broadcast(a: tuple, b: tuple) -> tuple:
    """The shape two shapes broadcast to, by torch's rules (torch.broadcast_shapes
    costs 0.15 ms a call, a hundred times this)."""
    if len(a) < len(b):
        a, b = b, a
    b = (1,) * (len(a) - len(b)) + tuple(b)
    if any(x != y and 1 not in (x, y) for x, y in zip(a, b)):
        raise ValueError("the shapes of q, k, v and the mask do not broadcast")
    return tuple(y if x == 1 else x for x, y in zip(a, b))
