"""Sent by exam/grading.py (answer): a short answer held by the worker as an object
(torch.Size, a tuple subclass) read back as plain data. Runs in the worker only."""


def items(value):
    """A tuple or list of another type (torch.Size) as a plain tuple; None otherwise."""
    return tuple(value) if isinstance(value, (tuple, list)) else None
