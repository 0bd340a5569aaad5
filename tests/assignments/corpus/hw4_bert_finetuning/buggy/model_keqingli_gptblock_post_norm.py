# question: TinyBertForClassification
# fails: test_logits_with_reference_weights, test_logits_with_trained_weights, test_documented_training_run
# public: -
# makes: bert_post_norm, bert_relu, bert_dropout
# batch I1 (labelled before grading; split by sha1 of the stem, the first half measured)
# LayerNorm after each residual sum, ReLU, an active dropout on the layer's output
# source: keqingli1129/trae-pytorch-is-easy, gptblock.py (Block as the stub's layer: d_model, n_head are h
# source: and heads, d_ff the task's 4h, dropout its 0.1; its nn.MultiheadAttention is the provided
# source: TinySelfAttn; norm1 and norm2 renamed ln1 and ln2; the embeddings in and the head on position 0
# source: are the task's, which the file does not hold)
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d_model, n_head, d_ff, dropout=0.1):
        super().__init__()
        self.attn = TinySelfAttn(d_model, n_head)
        self.ff = nn.Sequential(
            nn.Linear(d_model, d_ff),
            nn.ReLU(),
            nn.Linear(d_ff, d_model)
        )
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        attn_output = self.attn(x)
        x = self.ln1(x + attn_output)
        ff_output = self.ff(x)
        x = self.ln2(x + ff_output)
        return self.dropout(x)


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layers = nn.ModuleList([Block(h, heads, 4 * h) for _ in range(n_layers)])
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        x = self.tok_emb(ids) + self.pos_emb(torch.arange(ids.shape[1]))
        for layer in self.layers:
            x = layer(x)
        return self.head(x[:, 0])
