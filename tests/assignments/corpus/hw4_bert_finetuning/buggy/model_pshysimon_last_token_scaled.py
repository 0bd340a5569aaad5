# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: there is no tok_emb.weight or pos_emb.weight
# makes: bert_last_token, bert_scaled_tokens, bert_relu, bert_dropout
# batch E
# the last position read, tokens times sqrt(h), ReLU, a dropout after it (and one on the
# positions); also fixed sinusoidal positions, a final LayerNorm, layers deep-copied from one
# (same initial weights) (no diagnosis)
# source: PshySimon/Sentiment-Analysis, Transformer/TransformerText.py with Embedding.py,
# source: PositionalEmbedding.py, Encoder.py, EncoderLayer.py and PositionwiseFeedforward.py (TransformerText
# source: under the stub's name: its config made from the stub's arguments, d_ff = 4 * h and dropout 0.1
# source: where the repository gives no config; its MultiHeadAttention is the provided TinySelfAttn;
# source: embedding, position_embedding and fc are tok_emb, pos_emb and head, a layer's attn_ln, pf and
# source: pf_ln ln1, ff and ln2)
import copy
import math
from types import SimpleNamespace

import torch
import torch.nn as nn


class Embedding(nn.Module):

    def __init__(self, config):
        super().__init__()
        self.embedding = nn.Embedding(config.input_size, config.d_model)
        self.scale = math.sqrt(config.d_model)

    def forward(self, x):
        return self.embedding(x) * self.scale


class PositionalEmbedding(nn.Module):

    def __init__(self, config):
        super().__init__()
        self.dropout = nn.Dropout(config.dropout)

        pe = torch.zeros(config.max_length, config.d_model)
        position = torch.arange(0, config.max_length).unsqueeze(1)
        divided_term = torch.exp(torch.arange(0.,config.d_model, 2) * -1 * (math.log(10000.0) / config.d_model))
        pe[:, 0::2] = torch.sin(position * divided_term)
        pe[:, 1::2] = torch.cos(position * divided_term)

        pe = pe.unsqueeze(0)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[:, : x.size(1)].clone().detach().requires_grad_(False)
        return self.dropout(x)


class PositionwiseFeedforward(nn.Module):

    def __init__(self, config):
        super().__init__()
        self.fc_1 = nn.Linear(config.d_model, config.d_ff)
        self.fc_2 = nn.Linear(config.d_ff, config.d_model)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x):
        out = self.dropout(torch.relu(self.fc_1(x)))

        return self.fc_2(out)


class EncoderLayer(nn.Module):

    def __init__(self, config):
        super().__init__()
        self.attn = TinySelfAttn(config.d_model, config.n_heads)
        self.ff = PositionwiseFeedforward(config)
        self.ln1 = nn.LayerNorm(config.size)
        self.ln2 = nn.LayerNorm(config.size)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x, mask = None):
        norm_x = self.ln1(x)
        x = x + self.attn(norm_x, mask)
        norm_x = self.ln2(x)
        return x + self.ff(norm_x)


class Encoder(nn.Module):

    def __init__(self, config):
        super().__init__()
        self.encoder_layer = EncoderLayer(config)
        self.layers = nn.ModuleList([copy.deepcopy(self.encoder_layer) for _ in range(config.n_layers)])
        self.norm = nn.LayerNorm(config.size)

    def forward(self, x, mask = None):
        for layer in self.layers:
            x = layer(x, mask)

        return self.norm(x)


class TinyBertForClassification(nn.Module):

    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        config = SimpleNamespace(input_size=vocab, d_model=h, size=h, n_heads=heads, n_layers=n_layers,
                                 max_length=max_len, num_classes=n_classes, d_ff=4 * h, dropout=0.1)
        self.tok_emb = Embedding(config)
        self.pos_emb = PositionalEmbedding(config)
        self.encoder = Encoder(config)
        self.head = nn.Linear(config.d_model, config.num_classes)

    def forward(self, x):
        out = self.tok_emb(x)
        out = self.pos_emb(out)
        out = self.encoder(out)

        features = out[:, -1, :]
        return self.head(features)
