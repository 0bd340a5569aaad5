# torch's fused attention in TinySelfAttn, the layers in an nn.Sequential
# (same keys layers.i.*), positions by slicing the embedding table.
import torch
import torch.nn.functional as F
from torch import nn


class TinySelfAttn(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        if h % heads:
            raise ValueError("h must be divisible by heads")
        self.heads = heads
        self.qkv = nn.Linear(h, 3 * h, bias=False)
        self.out = nn.Linear(h, h)

    def forward(self, x, mask=None):
        B, T, h = x.shape
        q, k, v = self.qkv(x).split(h, dim=-1)
        q, k, v = (t.reshape(B, T, self.heads, -1).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.out(y.transpose(1, 2).reshape(B, T, h))


class Block(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h))
        self.ln1, self.ln2 = nn.LayerNorm(h), nn.LayerNorm(h)

    def forward(self, x):
        x = self.attn(self.ln1(x)) + x
        return self.ff(self.ln2(x)) + x


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layers = nn.Sequential(*[Block(h, heads) for _ in range(n_layers)])
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        x = self.tok_emb(ids) + self.pos_emb.weight[: ids.shape[1]]
        return self.head(self.layers(x).select(1, 0))
