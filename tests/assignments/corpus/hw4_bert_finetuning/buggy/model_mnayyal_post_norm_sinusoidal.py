# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_post_norm, bert_dropout
# batch H1 (labelled before grading)
# LayerNorm after each residual sum, the feed-forward ends with an active dropout; also fixed
# sinusoidal positions, a LayerNorm on [CLS] before the head (no diagnosis)
# split: measure
# source: MNayyal/From-Scratch-Building-a-Transformer-for-Text-Classification, from_scratch_transformers.py
# source: (Encoder, TransformerBlock and PositionalEncoding under the stub's names: vocab_size,
# source: max_len, d_model, n_heads, n_layers, n_classes are the stub's, dropout_prob its script's 0.1;
# source: its MultiHeadAttention is the provided TinySelfAttn; mha, ann, embedding, fc renamed attn,
# source: ff, tok_emb, head; no attention mask given)
import math

import torch
import torch.nn as nn


class TransformerBlock(nn.Module):
    def __init__(self, d_model, n_heads, dropout_prob=0.1):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.attn = TinySelfAttn(d_model, n_heads)
        self.ff = nn.Sequential(
            nn.Linear(d_model, d_model * 4),
            nn.GELU(),
            nn.Linear(d_model * 4, d_model),
            nn.Dropout(dropout_prob),
        )
        self.dropout = nn.Dropout(p=dropout_prob)

    def forward(self, x, mask=None):
        x = self.ln1(x + self.attn(x, mask))
        x = self.ln2(x + self.ff(x))
        x = self.dropout(x)
        return x


class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=2048, dropout_prob=0.1):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout_prob)

        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(1, max_len, d_model)
        pe[0, :, 0::2] = torch.sin(position * div_term)
        pe[0, :, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:, :x.size(1), :]
        return self.dropout(x)


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        dropout_prob = 0.1
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_encoding = PositionalEncoding(h, max_len, dropout_prob)

        transformer_blocks = [
            TransformerBlock(h, heads, dropout_prob)
            for _ in range(n_layers)
        ]
        self.layers = nn.Sequential(*transformer_blocks)

        self.ln = nn.LayerNorm(h)
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids, mask=None):
        x = self.tok_emb(ids)
        x = self.pos_encoding(x)

        for block in self.layers:
            x = block(x, mask)

        # Use first token for classification (like BERT's [CLS] token)
        x = x[:, 0, :]
        x = self.ln(x)
        x = self.head(x)
        return x
