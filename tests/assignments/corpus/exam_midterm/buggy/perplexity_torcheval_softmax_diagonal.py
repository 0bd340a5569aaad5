# question: perplexity
# fails: test_large_logits_stay_finite, test_integer_scores, test_rejects_nothing_to_score
# makes: perplexity_log_of_softmax, perplexity_no_float_cast
# batch G1 (labelled before grading)
# log of F.softmax; int8 scores make softmax raise; also a RuntimeError (torch.max of nothing),
# not ValueError, when every position is ignored
# split: measure
# source: pytorch/torcheval, torcheval/metrics/functional/text/perplexity.py (perplexity: the scores and
# source: labels made tensors with a batch axis of one, as its (n_samples, seq_len) inputs are, the answer
# source: a float)
from copy import deepcopy
from typing import Optional, Tuple

import numpy as np
import torch
import torch.nn.functional as F


@torch.inference_mode()
def _perplexity(
    input: torch.Tensor,
    target: torch.Tensor,
    ignore_index: Optional[int] = None,
) -> torch.Tensor:
    sum_log_probs, num_total = _perplexity_update(input, target, ignore_index)

    return _perplexity_compute(sum_log_probs, num_total)


def _perplexity_update(
    input: torch.Tensor,
    target: torch.Tensor,
    ignore_index: Optional[int] = None,
) -> Tuple[torch.Tensor, torch.Tensor]:
    _perplexity_input_check(input, target, ignore_index)

    probs = input.reshape(-1, input.shape[-1])
    probs = F.softmax(probs, dim=1)

    target = target.reshape(-1)

    if ignore_index is not None:
        mask = target.ne(ignore_index)
        probs = probs[mask]
        target = target[mask]

    probs = probs[:, target].diagonal()

    sum_log_probs = -probs.log().sum()
    num_total = torch.tensor(target.size(0), device=target.device)

    return sum_log_probs, num_total


def _perplexity_compute(
    sum_log_probs: torch.Tensor,
    num_total: torch.Tensor,
) -> torch.Tensor:

    return torch.exp(sum_log_probs / num_total).double()


def _perplexity_input_check(
    input: torch.Tensor,
    target: torch.Tensor,
    ignore_index: Optional[int] = None,
) -> None:

    if target.ndim != 2:
        raise ValueError(
            f"target should be a two-dimensional tensor, got shape {target.shape}."
        )

    if input.ndim != 3:
        raise ValueError(
            f"input should be a three-dimensional tensor, got shape {input.shape}."
        )

    if input.size(0) != target.size(0):
        raise ValueError(
            "The `input` and `target` should have the same first dimension (i.e., batch size), "
            f"got shapes {input.shape} and {target.shape} instead."
        )

    if input.size(1) != target.size(1):
        raise ValueError(
            "The `input` and `target` should have the same second dimension (i.e., sequence length), "
            f"got shapes {input.shape} and {target.shape} instead."
        )

    if ignore_index:
        _target = deepcopy(target)
        mask = _target.ne(ignore_index)
        _target = _target[mask]
    else:
        _target = target

    if input.size(2) <= torch.max(_target):
        raise ValueError(
            "Class labels in `target` tensor cannot be larger than vocab_size minus one, got "
            f"vocab size of {input.size(2)} and target label of {int(torch.max(_target))}."
        )


def perplexity(logits, labels, ignore_index=-100):
    input = torch.as_tensor(np.asarray(logits))[None]
    target = torch.as_tensor(np.asarray(labels))[None]
    return _perplexity(input, target, ignore_index).item()
