# question: TinyBertForClassification
# fails: test_logits_with_reference_weights, test_logits_with_trained_weights, test_documented_training_run
# public: -
# makes: bert_post_norm, bert_relu, bert_scaled_tokens, bert_dropout
# batch E
# LayerNorm after each residual sum, ReLU, dropout on both sub-layers' outputs (the
# feed-forward's included), the sum of the embeddings times sqrt(h); also dropout on
# the embeddings and on [CLS] (no diagnosis)
# split: measure
# source: mrinalxdev/BERTencoder, main.py at 794c697 (TransformerEncoderLayer, BERTEncoder and
# source: BERTClassifier under the stub's names; its MultiHeadAttention is the provided TinySelfAttn, so no
# source: attention weights are returned; d_ff is its script's 512 = 4 * d_model, dropout its default 0.1)
import numpy as np
import torch
from torch import nn


class EncoderLayer(nn.Module):
    def __init__(self, h, heads, dropout=0.1):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.ReLU(), nn.Linear(4 * h, h))
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        attn_output = self.attn(x, mask)
        x = self.ln1(x + self.dropout(attn_output))
        ff_output = self.ff(x)
        x = self.ln2(x + self.dropout(ff_output))
        return x


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2, dropout=0.1):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layers = nn.ModuleList([
            EncoderLayer(h, heads, dropout)
            for _ in range(n_layers)
        ])
        self.emb_dropout = nn.Dropout(dropout)
        self.d_model = h

        self.head = nn.Linear(h, n_classes)
        self.dropout = nn.Dropout(dropout)

    def forward(self, ids, mask=None):
        batch_size, seq_len = ids.size()
        positions = torch.arange(0, seq_len, device=ids.device).unsqueeze(0).repeat(batch_size, 1)
        x = self.tok_emb(ids) + self.pos_emb(positions)
        x = self.emb_dropout(x * np.sqrt(self.d_model))
        for layer in self.layers:
            x = layer(x, mask)
        cls_output = x[:, 0, :] # this is the cls token embedding
        cls_output = self.dropout(cls_output)
        logits = self.head(cls_output)
        return logits
