"""Sent by test_greedy_decode.py: the `step` the student's greedy_decode calls, whose
logits depend on the whole list it receives and which records every call, up to a
bound: a loop that never stops is refused at once, not when its growing record has
filled the worker's memory or its time (whichever came first decided the message)."""

import numpy as np


class Step:
    """Logits for the next token: by_position[len(ids) - 1] + by_last[ids[-1]]."""

    def __init__(self, by_position, by_last, most_calls):
        self.by_position = np.asarray(by_position, dtype=np.float64)
        self.by_last = np.asarray(by_last, dtype=np.float64)
        self.most_calls = int(most_calls)
        self.calls = []

    def __call__(self, ids):
        if len(self.calls) >= self.most_calls:
            raise TooManyCalls(f"step was called more than {self.most_calls} times")
        ids = [int(i) for i in ids]
        self.calls.append(ids)
        row = min(len(ids) - 1, len(self.by_position) - 1)
        return self.by_position[row] + self.by_last[ids[-1]]


class TooManyCalls(RuntimeError):
    pass


def make_step(by_position, by_last, most_calls):
    return Step(by_position, by_last, most_calls)
