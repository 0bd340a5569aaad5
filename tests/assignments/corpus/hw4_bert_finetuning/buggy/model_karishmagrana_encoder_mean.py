# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_mean_pooling, bert_post_norm, bert_relu, bert_dropout
# batch I1 (labelled before grading; split by sha1 of the stem, the first half measured)
# nn.TransformerEncoder (post-norm, ReLU, dropout 0.1) and the mean over positions; also a
# 512-wide feed-forward, sequence-first (attention across the batch) and sinusoidal
# positions indexed by the batch (no diagnosis)
# source: karishmagrana/Big-Data-Final-Project, evoprompting/seeds/6.py (TransformerClassifier under the
# source: stub's name: d_model, nhead, num_layers, n_classes are h, heads, n_layers, n_classes, its defaults
# source: dim_feedforward=512 and dropout=0.1 kept; the ids are embedded first (tok_emb), since the stub takes
# source: ids; its PositionalEncoding is the PyTorch tutorial's, which the seeds import; classifier renamed head)
import math

import torch
import torch.nn as nn


class PositionalEncoding(nn.Module):

    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)

        position = torch.arange(max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        pe = torch.zeros(max_len, 1, d_model)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0)]
        return self.dropout(x)


class TinyBertForClassification(nn.Module):

    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2,
                 dim_feedforward=512, dropout=0.1):

        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)

        self.pos_encoder = PositionalEncoding(
            d_model=h,
            dropout=dropout,
            max_len=5000,
        )

        encoder_layer = nn.TransformerEncoderLayer(
            d_model=h,
            nhead=heads,
            dim_feedforward=dim_feedforward,
            dropout=dropout,
        )
        self.transformer_encoder = nn.TransformerEncoder(
            encoder_layer,
            num_layers=n_layers,
        )
        self.head = nn.Linear(h, n_classes)
        self.d_model = h

    def forward(self, ids):
        x = self.tok_emb(ids)
        x = self.pos_encoder(x)
        x = self.transformer_encoder(x)
        x = x.mean(dim=1)
        x = self.head(x)

        return x
