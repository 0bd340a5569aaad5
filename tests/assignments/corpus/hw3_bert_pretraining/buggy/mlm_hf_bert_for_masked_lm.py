# question: mlm_loss
# fails: test_nothing_selected_is_zero
# public: not nan
# makes: mlm_nan_when_nothing
# batch E
# split: measure
# source: huggingface/transformers, src/transformers/models/bert/modeling_bert.py (BertForMaskedLM.forward's
# source: loss: prediction_scores are the logits, self.config.vocab_size their last dimension)
import torch
from torch.nn import CrossEntropyLoss


def mlm_loss(logits, labels):
    prediction_scores = logits
    vocab_size = logits.shape[-1]
    loss_fct = CrossEntropyLoss()  # -100 index = padding token
    masked_lm_loss = loss_fct(prediction_scores.view(-1, vocab_size), labels.view(-1))
    return masked_lm_loss
