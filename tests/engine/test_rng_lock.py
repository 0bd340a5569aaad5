"""The trusted process's global RNGs are drawn from only under numerics.GLOBAL_RNG:
a draw from another grading thread in the middle of a seeded reference build gives
the whole batch a wrong reference. (Every corpus grading is also watched:
tests/assignments/test_corpus.py, test_grading_draws_from_the_global_rngs_only_under_their_lock.)"""
from __future__ import annotations

import threading
import time

import torch

from autograder.engine import numerics
from autograder.engine.diagnoses import replay
from tests.engine.rng_watch import unlocked_draws


def _draw_for(seconds: float, locked: bool) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if locked:
            with numerics.GLOBAL_RNG:
                torch.rand(1)
        else:
            torch.rand(1)
        time.sleep(0.0002)


def test_the_watcher_sees_draws_without_the_lock_and_only_those():
    with unlocked_draws() as locked:
        _draw_for(0.2, locked=True)
    with unlocked_draws() as unlocked:
        _draw_for(0.2, locked=False)
    assert locked.count == 0 and unlocked.count > 0, (locked.count, unlocked.count)


def test_a_replay_that_builds_a_module_waits_for_a_seeded_build():
    """A sign replays the reference (hw1's TinySelfAttn builds two nn.Linear) while
    another thread builds a reference under seeded: the build's draws stay its own."""
    inside, done = threading.Event(), threading.Event()
    drawn = []

    def build():
        with numerics.seeded(5):
            first = torch.rand(3)
            inside.set()
            done.wait(0.3)  # the replay, were it not held back, would draw now
            drawn.append(torch.cat([first, torch.rand(3)]))

    def replaying():
        inside.wait(5)
        replay.answer(torch.nn.Linear, (8, 8), {})
        done.set()

    threads = [threading.Thread(target=build), threading.Thread(target=replaying)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    with numerics.seeded(5):
        expected = torch.rand(6)
    assert torch.equal(drawn[0], expected)
