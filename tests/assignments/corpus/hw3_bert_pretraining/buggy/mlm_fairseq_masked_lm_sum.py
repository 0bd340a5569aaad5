# question: mlm_loss
# fails: test_matches_cross_entropy
# public: the mean over the 3 targets
# makes: mlm_sum
# batch G2 (labelled before grading)
# split: measure
# source: facebookresearch/fairseq, fairseq/criterions/masked_lm.py (MaskedLmLoss.forward on CPU: the
# source: model's logits are given for every position, so the masked ones are picked from them;
# source: self.padding_idx, the target its loss ignores, is the contract's -100; modules.cross_entropy
# source: is F.cross_entropy; the loss is returned without the sample size beside it)
import torch
import torch.nn.functional as F


def mlm_loss(logits, labels):
    padding_idx = -100
    masked_tokens = labels.ne(padding_idx)
    sample_size = masked_tokens.int().sum()  # noqa: F841 (the denominator fairseq hands to the optimizer)

    # Rare: when all tokens are masked, project all tokens.
    if masked_tokens.device == torch.device("cpu"):
        if not masked_tokens.any():
            masked_tokens = None

    targets = labels
    if masked_tokens is not None:
        logits = logits[masked_tokens]
        targets = targets[masked_tokens]

    loss = F.cross_entropy(
        logits.view(-1, logits.size(-1)),
        targets.view(-1),
        reduction="sum",
        ignore_index=padding_idx,
    )
    return loss
