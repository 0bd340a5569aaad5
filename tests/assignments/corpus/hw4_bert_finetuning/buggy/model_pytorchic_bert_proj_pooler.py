# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: there is no tok_emb.weight or pos_emb.weight
# makes: bert_post_norm, bert_dropout
# batch G1 (labelled before grading)
# also an extra proj Linear after the attention, embedding LayerNorm and dropout, a segment
# row added, a tanh pooler (no diagnosis)
# split: measure
# source: dhlee347/pytorchic-bert, models.py and classify.py (Classifier over its Transformer: dim,
# source: n_layers, n_heads, max_len, vocab_size are h, n_layers, heads, max_len, vocab, dim_ff = 4h,
# source: p_drop_hidden 0.1, n_seg 2; its MultiHeadedSelfAttention is the provided TinySelfAttn, given no
# source: input mask, its PositionWiseFeedForward the Sequential ff with its erf gelu, norm1/norm2 ln1/ln2
# source: with gamma and beta named weight and bias; no segments given, so they are all 0)
import math

import torch
import torch.nn as nn


def gelu(x):
    "Implementation of the gelu activation function by Hugging Face"
    return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


class GELU(nn.Module):
    def forward(self, x):
        return gelu(x)


class LayerNorm(nn.Module):
    "A layernorm module in the TF style (epsilon inside the square root)."
    def __init__(self, dim, variance_epsilon=1e-12):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.variance_epsilon = variance_epsilon

    def forward(self, x):
        u = x.mean(-1, keepdim=True)
        s = (x - u).pow(2).mean(-1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.variance_epsilon)
        return self.weight * x + self.bias


class Embeddings(nn.Module):
    "The embedding module from word, position and token_type embeddings."
    def __init__(self, vocab, h, max_len, n_seg=2, p_drop_hidden=0.1):
        super().__init__()
        self.tok_embed = nn.Embedding(vocab, h) # token embedding
        self.pos_embed = nn.Embedding(max_len, h) # position embedding
        self.seg_embed = nn.Embedding(n_seg, h) # segment(token type) embedding

        self.norm = LayerNorm(h)
        self.drop = nn.Dropout(p_drop_hidden)

    def forward(self, x, seg):
        seq_len = x.size(1)
        pos = torch.arange(seq_len, dtype=torch.long, device=x.device)
        pos = pos.unsqueeze(0).expand_as(x) # (S,) -> (B, S)

        e = self.tok_embed(x) + self.pos_embed(pos) + self.seg_embed(seg)
        return self.drop(self.norm(e))


class EncoderLayer(nn.Module):
    """ Transformer Block """
    def __init__(self, h, heads, p_drop_hidden=0.1):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.proj = nn.Linear(h, h)
        self.ln1 = LayerNorm(h)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), GELU(), nn.Linear(4 * h, h))
        self.ln2 = LayerNorm(h)
        self.drop = nn.Dropout(p_drop_hidden)

    def forward(self, x, mask=None):
        h = self.attn(x, mask)
        h = self.ln1(x + self.drop(self.proj(h)))
        h = self.ln2(h + self.drop(self.ff(h)))
        return h


class TinyBertForClassification(nn.Module):
    """ Classifier with Transformer """
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2,
                 p_drop_hidden=0.1):
        super().__init__()
        self.embed = Embeddings(vocab, h, max_len)
        self.layers = nn.ModuleList([EncoderLayer(h, heads) for _ in range(n_layers)])
        self.fc = nn.Linear(h, h)
        self.activ = nn.Tanh()
        self.drop = nn.Dropout(p_drop_hidden)
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        segment_ids = torch.zeros_like(ids)
        h = self.embed(ids, segment_ids)
        for block in self.layers:
            h = block(h)
        # only use the first h in the sequence
        pooled_h = self.activ(self.fc(h[:, 0]))
        logits = self.head(self.drop(pooled_h))
        return logits
