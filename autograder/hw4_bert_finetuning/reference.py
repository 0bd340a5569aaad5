"""Reference solution of hw4_bert_finetuning.

Self-contained (it also runs as a notebook cell in the project's corpus
tests), so it carries its own copy of hw1's TinySelfAttn. The documented
figures it reproduces are asserted in tests/assignments/test_hw4_bert_finetuning.py.
"""
from __future__ import annotations

import math

import torch
from torch import nn


class TinySelfAttn(nn.Module):
    """hw1's multi-head self-attention (bidirectional when mask is None)."""

    def __init__(self, h: int, heads: int):
        super().__init__()
        if h % heads != 0:
            raise ValueError(f"h={h} is not divisible by heads={heads}")
        self.heads = heads
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)

    def forward(self, x, mask=None):
        B, T, h = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)  # each (B, T, h)
        split = lambda t: t.view(B, T, self.heads, h // self.heads).transpose(1, 2)  # (B,nh,T,hs)
        q, k, v = split(q), split(k), split(v)
        scores = q @ k.transpose(-2, -1) / math.sqrt(h // self.heads)  # (B, nh, T, T)
        if mask is not None:
            scores = scores + mask
        out = torch.softmax(scores, dim=-1) @ v  # (B, nh, T, hs)
        return self.out(out.transpose(1, 2).reshape(B, T, h))  # heads concatenated in order


class EncoderLayer(nn.Module):
    """Pre-norm block: x + attn(ln1(x)), then x + ff(ln2(x))."""

    def __init__(self, h: int, heads: int):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h))
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))


class TinyBertForClassification(nn.Module):
    """Token + learned position embeddings, n_layers pre-norm layers, a linear head on [CLS]."""

    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layers = nn.ModuleList([EncoderLayer(h, heads) for _ in range(n_layers)])
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        positions = torch.arange(ids.shape[1], device=ids.device)  # (T,)
        x = self.tok_emb(ids) + self.pos_emb(positions)  # (B, T, h)
        for layer in self.layers:
            x = layer(x)
        return self.head(x[:, 0])  # (B, n_classes) from [CLS]


def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    losses = []
    for _ in range(epochs):
        opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses
