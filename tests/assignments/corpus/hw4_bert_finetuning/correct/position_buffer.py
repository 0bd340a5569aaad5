# Position ids kept in a non-persistent buffer (not in state_dict, not a
# parameter), the [CLS] vector read with index_select, the layer's two
# updates written as one expression each.
import torch
from torch import nn


class PreNormBlock(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, h * 4), nn.GELU(), nn.Linear(h * 4, h))
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)

    def forward(self, x):
        x = torch.add(x, self.attn(self.ln1(x)))
        return torch.add(x, self.ff(self.ln2(x)))


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layers = nn.ModuleList()
        for _ in range(n_layers):
            self.layers.append(PreNormBlock(h, heads))
        self.head = nn.Linear(h, n_classes)
        self.register_buffer("position_ids", torch.arange(max_len), persistent=False)

    def forward(self, ids):
        x = self.tok_emb(ids) + self.pos_emb(self.position_ids[: ids.size(-1)]).unsqueeze(0)
        for block in self.layers:
            x = block(x)
        cls = x.index_select(1, torch.tensor([0])).squeeze(1)  # (B, h)
        return self.head(cls)
