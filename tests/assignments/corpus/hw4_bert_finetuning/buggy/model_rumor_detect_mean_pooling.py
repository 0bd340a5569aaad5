# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_mean_pooling, bert_post_norm, bert_relu, bert_dropout
# batch E
# nn.TransformerEncoder (post-norm, ReLU, dropout) and the mean over positions; also a
# 256-wide feed-forward, a biased in_proj, sinusoidal positions indexed by the batch
# (x.size(1) of a sequence-first x) (no diagnosis)
# split: measure
# source: zhangxy12/ANALYSIS_SYSTEM, back_end/rumor_detect/model.py (Transformer under the stub's name, with
# source: its defaults feedforward_dim=256 and dropout=0.1: embedding_dim, num_head, num_layers, num_class
# source: and vocab_size are h, heads, n_layers, n_classes and vocab; embedding and fc are tok_emb and head)
import torch
import math
import torch.nn as nn

class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=128):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2) * -(math.log(10000.0)/d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[:, :x.size(1)].requires_grad_(False)
        return self.dropout(x)

class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2,
                 feedforward_dim=256, dropout=0.1):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.positional_encoding = PositionalEncoding(h, dropout, max_len)
        encoder_layer = nn.TransformerEncoderLayer(h, heads,
                                                   feedforward_dim, dropout)
        self.transformer = nn.TransformerEncoder(encoder_layer, n_layers)
        self.head = nn.Linear(h, n_classes)

    def forward(self, x):
        x = x.transpose(0, 1)
        x = self.tok_emb(x)
        x = self.positional_encoding(x)
        x = self.transformer(x)
        x = x.mean(axis=0)
        return self.head(x)
