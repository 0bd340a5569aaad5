# question: mlm_loss
# fails: test_returns_scalar_tensor, test_leading_dimensions, test_ignored_positions_do_not_count, test_nothing_selected_is_zero, test_gradient_flows_to_logits
# public: cannot reshape tensor of 0 elements
# makes: mlm_class_zero
# batch G2 (labelled before grading)
# d2l's default-mean CrossEntropyLoss runs over every row's padded entries too (position 0,
# label 0, weight 0), so a row with fewer targets adds class-0 predictions to the mean
# split: measure
# source: d2l-ai/d2l-zh, chapter_natural-language-processing-pretraining/bert-pretraining.md
# source: (_get_batch_loss_bert's masked LM loss with its loss = nn.CrossEntropyLoss(); the data
# source: it is fed, as _pad_bert_inputs pads it: each row's target positions (labels not -100),
# source: padded to the longest row's count with position 0, label 0 and weight 0; MaskLM's gather
# source: of those positions done on the given logits)
import torch
from torch import nn


def mlm_loss(logits, labels):
    vocab_size = logits.shape[-1]
    seq_len = labels.shape[-1] if labels.dim() > 0 else 1
    rows = labels.reshape(-1, seq_len)
    logits = logits.reshape(-1, seq_len, vocab_size)
    batch_size = rows.shape[0]

    targets = [torch.nonzero(row != -100).flatten().tolist() for row in rows]
    max_num_mlm_preds = max((len(t) for t in targets), default=0)
    pred_positions_X, mlm_weights_X, mlm_Y = [], [], []
    for row, pred_positions in zip(rows, targets):
        n = len(pred_positions)
        pred_positions_X.append(pred_positions + [0] * (max_num_mlm_preds - n))
        mlm_weights_X.append([1.0] * n + [0.0] * (max_num_mlm_preds - n))
        mlm_Y.append(row[pred_positions].tolist() + [0] * (max_num_mlm_preds - n))
    pred_positions_X = torch.tensor(pred_positions_X, dtype=torch.long).reshape(batch_size, -1)
    mlm_weights_X = torch.tensor(mlm_weights_X, dtype=torch.float32).reshape(batch_size, -1)
    mlm_Y = torch.tensor(mlm_Y, dtype=torch.long).reshape(batch_size, -1)

    # MaskLM.forward's gather of the predicted positions
    num_pred_positions = pred_positions_X.shape[1]
    pred_positions = pred_positions_X.reshape(-1)
    batch_idx = torch.arange(0, batch_size)
    batch_idx = torch.repeat_interleave(batch_idx, num_pred_positions)
    mlm_Y_hat = logits[batch_idx, pred_positions]
    mlm_Y_hat = mlm_Y_hat.reshape((batch_size, num_pred_positions, -1))

    loss = nn.CrossEntropyLoss()
    # 计算遮蔽语言模型损失
    mlm_l = loss(mlm_Y_hat.reshape(-1, vocab_size), mlm_Y.reshape(-1)) *\
        mlm_weights_X.reshape(-1, 1)
    mlm_l = mlm_l.sum() / (mlm_weights_X.sum() + 1e-8)
    return mlm_l
