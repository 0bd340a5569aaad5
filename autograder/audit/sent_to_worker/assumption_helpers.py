"""Written into every assumption variant's notebook, before the wrapped stub
(autograder/audit/assumptions.py): how each assumption answers where it fails."""


def _assumption_dims(value):
    """The sizes of value's dimensions (an array or tensor, or a list or tuple of
    items: its length), or None for anything else (a string is a value, not a
    sequence of items)."""
    shape = getattr(value, "shape", None)
    if shape is not None and not isinstance(value, type):
        try:
            return [int(s) for s in shape]
        except (TypeError, ValueError):
            return None
    if isinstance(value, (list, tuple)):
        return [len(value)]
    return None


def _assumption_check(kind, ranks, args, kwargs):
    """Raise as the assumption's answer does where it does not hold."""
    if kind == "rank":
        for value, rank in zip(args, ranks):
            dims = _assumption_dims(value) if hasattr(value, "shape") else None
            if rank is not None and dims is not None and len(dims) != rank:
                raise RuntimeError(f"written for rank {rank} only, got {len(dims)}")
        return
    size = {"size-one": 1, "empty": 0}.get(kind)
    if size is None:
        return
    for value in [*args, *kwargs.values()]:
        dims = _assumption_dims(value)
        if dims is not None and size in dims:
            raise RuntimeError(f"written assuming no dimension of size {size}")


def _assumption_shaped(value):
    """value with an extra leading axis on every array or tensor in it."""
    try:
        import torch
    except ImportError:
        torch = None
    import numpy as np
    if torch is not None and isinstance(value, torch.Tensor):
        return value.unsqueeze(0)
    if isinstance(value, np.ndarray):
        return value[None]
    if isinstance(value, tuple):
        return tuple(_assumption_shaped(v) for v in value)
    return value
