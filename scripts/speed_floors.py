"""Maintainer tool: the CPU that the masters' own code costs where hw4 and hw6
spend their grading time, in this plain process (one thread, no worker, no
round trip): the floor under their benchmark medians (docs/speed.md, "Why hw4
and hw6 cannot meet them").

    .venv/bin/python scripts/speed_floors.py [--repeats N]

* hw4: the lesson's documented run (torch.manual_seed(42), the notebook's
  model with its provided fused attention, Adam lr 1e-3, 30 full-batch epochs),
  which every graded notebook runs; and 30 forwards and backwards of that model
  without an optimizer, what TinyBertForClassification's training test asks of
  the worker.
* hw6: the draws of sample_next's distribution tests (8 cases x N draws, N as
  in the hidden tests), one call of the master's sampler per draw.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
import torch  # noqa: E402
from torch import nn  # noqa: E402

from autograder.hw4_bert_finetuning import common  # noqa: E402
from autograder.hw4_bert_finetuning import reference as hw4  # noqa: E402
from autograder.hw6_encoder_decoder import reference as hw6  # noqa: E402
from autograder.hw6_encoder_decoder.test_sample_next import LOGITS, N  # noqa: E402

SAMPLE_CASES = [(1.0, None), (4.0, None), (0.25, None), (1.0, 3), (1.0, 4), (1.0, 6),
                (1.0, 50), (1.0, None)]  # (temperature, top_k) of the tests' 8 cases


def notebook_model() -> nn.Module:
    """hw4's model as the notebook builds it: the provided TinySelfAttn (fused attention)."""
    scope: dict = {}
    exec(common.PROVIDED_SOURCE, scope)
    hw4.TinySelfAttn = scope["TinySelfAttn"]  # what EncoderLayer builds from here on
    torch.manual_seed(common.MODEL_SEED)
    return hw4.TinyBertForClassification()


def documented_run() -> None:
    hw4.train_classifier(notebook_model(), *common.documented_data(), epochs=30, lr=1e-3)


def forwards_and_backwards() -> None:
    model, (ids, labels) = notebook_model(), common.documented_data()
    loss = nn.CrossEntropyLoss()
    for _ in range(30):
        model.zero_grad()
        loss(model(ids), labels).backward()


def sample_draws() -> None:
    rng = np.random.default_rng(0)
    for temperature, top_k in SAMPLE_CASES:
        for _ in range(N):
            hw6.sample_next(LOGITS, temperature, rng, top_k=top_k)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    repeats = parser.parse_args().repeats
    torch.set_num_threads(1)
    for what, run in (("hw4: documented run, model + Adam, 30 epochs", documented_run),
                      ("hw4: 30 forwards and backwards, no optimizer", forwards_and_backwards),
                      (f"hw6: {len(SAMPLE_CASES)} cases x {N} draws of sample_next",
                       sample_draws)):
        run()  # first use: lazy imports and allocations
        seconds = []
        for _ in range(repeats):
            start = time.process_time()
            run()
            seconds.append(time.process_time() - start)
        print(f"{what}: {statistics.median(seconds):.3f} s CPU "
              f"(median of {repeats}, lowest {min(seconds):.3f} s)")


if __name__ == "__main__":
    main()
