# question: TinyBertForClassification
# fails: test_state_dict_layout, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: make each layer's attn first
# makes: bert_dropout
# batch I1 (labelled before grading; split by sha1 of the stem, the first half measured)
# pre-norm, with an active dropout after the GELU and one ending the feed-forward (ff.3,
# not ff.2); also ln1 registered before attn (no diagnosis)
# split: measure
# source: msp99000/AMSDT-Net-Slum-Segmentation, architecture/encoder.py (TransformerEncoder's layers as the
# source: stub's: each layer's [LayerNorm, MultiheadAttention, LayerNorm, mlp] list is a module whose
# source: entries are named ln1, attn, ln2, ff as the task names them, created in its order; its
# source: nn.MultiheadAttention is the provided TinySelfAttn; mlp_dim is the task's 4h, dropout its 0.1; the
# source: embeddings in and the head on position 0 are the task's, which the file does not hold)
import torch
from torch import nn


class EncoderLayer(nn.Module):
    def __init__(self, dim, heads, mlp_dim, dropout=0.1):
        super().__init__()
        self.ln1 = nn.LayerNorm(dim)
        self.attn = TinySelfAttn(dim, heads)
        self.ln2 = nn.LayerNorm(dim)
        self.ff = nn.Sequential(
            nn.Linear(dim, mlp_dim),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(mlp_dim, dim),
            nn.Dropout(dropout)
        )

    def forward(self, x):
        # Attention part
        attn_output = self.attn(self.ln1(x))
        x = x + attn_output  # Add residual connection

        # MLP part
        x = x + self.ff(self.ln2(x))  # Add residual connection
        return x


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layers = nn.ModuleList([EncoderLayer(h, heads, 4 * h) for _ in range(n_layers)])
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        x = self.tok_emb(ids) + self.pos_emb(torch.arange(ids.shape[1]))
        for layer in self.layers:
            x = layer(x)
        return self.head(x[:, 0])
