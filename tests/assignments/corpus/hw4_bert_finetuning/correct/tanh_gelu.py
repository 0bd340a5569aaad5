# GELU's tanh approximation (the original BERT's), F.gelu in a module of its own
# so that the feed-forward keeps its ff.0 / ff.2 keys.
import torch
import torch.nn.functional as F
from torch import nn


class TanhGELU(nn.Module):
    def forward(self, x):
        return F.gelu(x, approximate="tanh")


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layers = nn.ModuleList()
        for _ in range(n_layers):
            layer = nn.Module()
            layer.attn = TinySelfAttn(h, heads)
            layer.ff = nn.Sequential(nn.Linear(h, 4 * h), TanhGELU(), nn.Linear(4 * h, h))
            layer.ln1 = nn.LayerNorm(h)
            layer.ln2 = nn.LayerNorm(h)
            self.layers.append(layer)
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        B, T = ids.shape
        x = self.tok_emb(ids) + self.pos_emb(torch.arange(T).unsqueeze(0).expand(B, T))
        for layer in self.layers:
            x = x + layer.attn(layer.ln1(x))
            x = x + layer.ff(layer.ln2(x))
        return self.head(x[:, 0, :])
