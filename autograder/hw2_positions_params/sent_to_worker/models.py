"""Sent by test_count_parameters.py: the models whose parameters the student's
count_parameters counts, built in the worker (make, frozen) and, to count them with
torch, in the grader from the same text. Model containers only: no counting here."""

import torch
from torch import nn

META = torch.device("meta")  # shapes without storage


class TiedLM(nn.Module):
    """Embedding, one encoder layer, an output head sharing the embedding's
    weight, and optionally a buffer (a fixed position table)."""

    def __init__(self, vocab, d, heads, d_ff, freeze_embedding=False, buffer=False):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d)
        if buffer:
            self.register_buffer("pe", torch.zeros(32, d))
        self.block = nn.TransformerEncoderLayer(d, heads, d_ff, batch_first=True)
        self.lm_head = nn.Linear(d, vocab)
        self.lm_head.weight = self.embedding.weight  # tied: one Parameter, two modules
        if freeze_embedding:
            self.embedding.weight.requires_grad_(False)


class SharedBlocks(nn.Module):
    """The same layer object used at several depths (ALBERT-style sharing)."""

    def __init__(self, d, repeats):
        super().__init__()
        block = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.blocks = nn.ModuleList([block] * repeats)
        self.norm = nn.LayerNorm(d)


class WithBuffers(nn.Module):
    """BatchNorm's running statistics and a registered table are buffers."""

    def __init__(self, d):
        super().__init__()
        self.conv = nn.Conv1d(d, d, 3)
        self.bn = nn.BatchNorm1d(d)
        self.register_buffer("table", torch.ones(100, d))
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.scale = nn.Parameter(torch.ones(d))


def tiny_bert(vocab=100, h=32, n_layers=2, max_len=16, n_classes=2):
    """The parameters of hw4's tiny BERT, by part, in module containers: a
    count needs no forward (and no model code of another assignment)."""
    def layer():
        attn = nn.ModuleDict({"qkv": nn.Linear(h, 3 * h, bias=False), "out": nn.Linear(h, h)})
        up_down = nn.Sequential(nn.Linear(h, h * 4), nn.GELU(), nn.Linear(h * 4, h))
        return nn.ModuleDict({"attn": attn, "ff": up_down,
                              "ln1": nn.LayerNorm(h), "ln2": nn.LayerNorm(h)})
    return nn.ModuleDict({"tok_emb": nn.Embedding(vocab, h), "pos_emb": nn.Embedding(max_len, h),
                          "layers": nn.ModuleList(layer() for _ in range(n_layers)),
                          "head": nn.Linear(h, n_classes)})


def table(n, d):
    """An embedding table on the meta device (given its weight: normal_ on meta is slow to load)."""
    return nn.Embedding(n, d, _weight=torch.empty(n, d, device="meta"))


def bert_base(part):
    """Components of BERT-base (d = 768, 12 layers, 12 heads, d_ff = 3072) on the meta device."""
    with META:
        return {
            "encoder_layers": lambda: nn.TransformerEncoder(
                nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072),
                num_layers=12, enable_nested_tensor=False),
            "token_table": lambda: table(30522, 768),
            "position_table": lambda: table(512, 768),
            "segment_table": lambda: table(2, 768),
            "embedding_norm": lambda: nn.LayerNorm(768),
            "pooler": lambda: nn.Linear(768, 768),
        }[part]()


def frozen(kind, *args):
    model = make(kind, *args)
    for name, p in model.named_parameters():
        if "norm" in name or name.endswith("bias"):
            p.requires_grad_(False)
    return model


def make(kind, *args):
    if kind == "encoder":
        return nn.TransformerEncoderLayer(*args)
    if kind == "decoder":
        return nn.TransformerDecoderLayer(*args)
    if kind == "transformer":
        d, heads, n_enc, n_dec, d_ff = args
        return nn.Transformer(d, heads, n_enc, n_dec, d_ff, batch_first=True)
    if kind == "mha_kv":
        d, heads, kdim, vdim = args
        return nn.MultiheadAttention(d, heads, kdim=kdim, vdim=vdim)
    if kind == "zoo":
        return nn.Sequential(nn.Conv2d(3, 8, 5), nn.ReLU(), nn.LSTM(8, 6, 2),
                             nn.LayerNorm(6, elementwise_affine=False), nn.Linear(6, 4, bias=False),
                             nn.GRU(4, 3, bidirectional=True))
    if kind == "empty":
        return nn.Sequential(nn.ReLU(), nn.Dropout(0.1))
    if kind == "huge":
        with META:  # 4.9 billion parameters, no storage
            return nn.Linear(*args)
    if kind == "tied":
        return TiedLM(*args)
    if kind == "shared":
        return SharedBlocks(*args)
    if kind == "buffers":
        return WithBuffers(*args)
    if kind == "tiny_bert":
        return tiny_bert(*args)
    if kind == "bert_base":
        return bert_base(*args)
    if kind == "frozen":
        return frozen(*args)
    raise ValueError(kind)
