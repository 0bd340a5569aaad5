# question: TinyBertForClassification
# fails: test_state_dict_layout, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: -
# makes: bert_post_norm, bert_dropout
# batch E
# the same, and a dropout after the GELU; its tanh GELU's cubic term is 0.44715 x^3, not
# 0.044715 x^3 (no diagnosis)
# source: woog2ee/KGEC, detection/detect_model/bert.py and utils.py (EncoderBlock as EncoderLayer with
# source: d_ff = 4 * d_model as its BERT builds it and bert_dropout 0.1: its MultiHeadAttention is the
# source: provided TinySelfAttn, its FeedForward (layer1, GELU, dropout, layer2) the Sequential ff; the
# source: mask its BERT makes from the padding is not passed; the model is the handout's)
import math

import torch
import torch.nn as nn


class GELU(nn.Module):
    def forward(self, x):
        return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.44715 * torch.pow(x, 3))))


class EncoderLayer(nn.Module):
    def __init__(self, h, heads, dropout=0.1):
        super().__init__()
        d_ff = h * 4

        self.attn = TinySelfAttn(h, heads)
        self.ff   = nn.Sequential(nn.Linear(h, d_ff), GELU(), nn.Dropout(dropout), nn.Linear(d_ff, h))

        self.ln1     = nn.LayerNorm(h)
        self.ln2     = nn.LayerNorm(h)
        self.dropout = nn.Dropout(dropout)


    def forward(self, x, mask=None):
        x_ = self.attn(x, mask)

        x = self.ln1(x + self.dropout(x_))

        x_ = self.ff(x)

        x = self.ln2(x + self.dropout(x_))
        return x
