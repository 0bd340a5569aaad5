# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_post_norm, bert_relu, bert_dropout, bert_mean_pooling
# batch H1 (labelled before grading)
# LayerNorm after each residual sum, ReLU, an active dropout on the feed-forward's output, the
# mean over positions; also sinusoidal positions added twice, a final LayerNorm (no diagnosis)
# split: measure
# source: devesssi/Transformer-sentiment, models/ (TransformerSentimentClassifier, Encoder, EncoderBlock,
# source: PositionalwiseFeedForward, Embeddings and positionalEncoding under the stub's names, with the
# source: names its own typos break (nn.linear, nn.embedding, torch.arrange, super.__init__, x.embedding,
# source: self.Droupout, EncoderBlock(...)) written as meant: d_model, heads, N, num_classes are h, heads,
# source: n_layers, n_classes, d_ff its trainer's 512 = 4 * 128, dropout 0.1; its MultiHeadAttention is the
# source: provided TinySelfAttn; mha, ffn, norm1, norm2, embedding, fc renamed attn, ff, ln1, ln2, tok_emb, head)
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class positionalEncoding(nn.Module):
    def __init__(self, d_model, max_length=5000):
        super().__init__()
        self.d_model = d_model
        self.max_length = max_length
        pe = torch.zeros(max_length, d_model)
        position = torch.arange(0, max_length, dtype=torch.float).unsqueeze(1)
        div_term = torch.arange(0, d_model, 2) * (math.log(10000.0) / d_model)
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:, :x.size(1), :]
        return x


class PositionalwiseFeedForward(nn.Module):
    def __init__(self, d_model, d_ff, dropout=0.1):
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)  # Expand
        self.linear2 = nn.Linear(d_ff, d_model)  # Project back
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.linear2(self.dropout(F.relu(self.linear1(x))))


class EncoderBlock(nn.Module):
    def __init__(self, d_model, heads, d_ff, dropout=0.1):
        super().__init__()
        self.attn = TinySelfAttn(d_model, heads)
        self.ff = PositionalwiseFeedForward(d_model, d_ff, dropout)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.dropout1 = nn.Dropout(dropout)
        self.dropout2 = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        # Multi-head attention + residual + norm
        attn_out = self.attn(x, mask)
        x = self.ln1(x + self.dropout1(attn_out))

        # Feed forward + residual + norm
        ffn_out = self.ff(x)
        x = self.ln2(x + self.dropout2(ffn_out))

        return x


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        dropout = 0.1
        # Encoder: Embeddings (with its own positionalEncoding), then positionalEncoding again
        self.tok_emb = nn.Embedding(vocab, h)
        self.positionalencod = positionalEncoding(h, 5000)
        self.pe = positionalEncoding(h)
        self.layers = nn.ModuleList([EncoderBlock(h, heads, 4 * h, dropout) for _ in range(n_layers)])
        self.norm = nn.LayerNorm(h)
        self.head = nn.Linear(h, n_classes)  # classification Layer fc--> fully conneted

    def forward(self, src, mask=None):
        x = self.tok_emb(src)
        x = self.positionalencod(x)
        x = self.pe(x)
        for layer in self.layers:
            x = layer(x, mask)
        x = self.norm(x)
        x = x.mean(dim=1)  # mean pooling
        return self.head(x)
