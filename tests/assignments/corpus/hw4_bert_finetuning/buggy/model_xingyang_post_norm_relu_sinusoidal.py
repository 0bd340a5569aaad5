# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_post_norm, bert_relu
# batch H1 (labelled before grading)
# also fixed sinusoidal positions (no diagnosis)
# split: measure
# source: XingYang21207454/Transformer-Model-Assignment-25120369, src/train.py (TransformerClassifier,
# source: EncoderLayer, FeedForward and PositionalEncoding under the stub's names with its script's
# source: ffn=True, sa=True, res_ln=True: d_model, num_layers, num_heads, num_classes are h, n_layers,
# source: heads, n_classes; its MultiHeadSelfAttention is the provided TinySelfAttn; ffn, norm1, norm2,
# source: embed, fc renamed ff, ln1, ln2, tok_emb, head; no attention mask given)
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000):
        super().__init__()
        pos = torch.arange(0, max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, d_model)
        pe[:, 0::2] = torch.sin(pos * div)
        pe[:, 1::2] = torch.cos(pos * div)
        self.pe = pe.unsqueeze(0)

    def forward(self, x):
        return x + self.pe[:, :x.size(1)].to(x.device)


class EncoderLayer(nn.Module):
    def __init__(self, d_model, heads, res_ln=True):
        super().__init__()
        self.attn = TinySelfAttn(d_model, heads)
        self.ff = nn.Sequential(
            nn.Linear(d_model, 4 * d_model),
            nn.ReLU(),
            nn.Linear(4 * d_model, d_model)
        )
        self.res_ln = res_ln
        if res_ln:
            self.ln1 = nn.LayerNorm(d_model)
            self.ln2 = nn.LayerNorm(d_model)

    def forward(self, x, mask=None):
        attn_out = self.attn(x, mask)
        if self.res_ln:
            x = self.ln1(x + attn_out)
        else:
            x = attn_out
        ffn_out = self.ff(x)
        return self.ln2(x + ffn_out) if self.res_ln else ffn_out


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos = PositionalEncoding(h)
        self.layers = nn.ModuleList([
            EncoderLayer(h, heads, res_ln=True)
            for _ in range(n_layers)
        ])
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids, mask=None):
        x = self.tok_emb(ids)
        x = self.pos(x)
        for layer in self.layers:
            x = layer(x, mask)
        return self.head(x[:, 0, :])  # 取[CLS]位置
