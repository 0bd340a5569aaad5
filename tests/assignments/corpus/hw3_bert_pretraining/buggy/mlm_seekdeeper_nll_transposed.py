# question: mlm_loss
# fails: test_leading_dimensions, test_nothing_selected_is_zero
# public: not nan
# makes: mlm_nan_when_nothing
# batch G2 (labelled before grading)
# also (T, V) logits break its transpose(1, 2) (no diagnosis)
# split: measure
# source: Kamichanw/SeekDeeper, bert/modules/pretrain.py (BERTTrainer.iteration's mask_loss: the
# source: BERTLM head's LogSoftmax applied to the logits; its NLLLoss(ignore_index=0), 0 being its
# source: padding label, ignores the contract's -100)
import torch.nn as nn


def mlm_loss(logits, labels):
    criterion = nn.NLLLoss(ignore_index=-100)
    mask_lm_output = nn.LogSoftmax(dim=-1)(logits)
    mask_loss = criterion(mask_lm_output.transpose(1, 2), labels)
    return mask_loss
