# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: must match the size of tensor b
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_post_norm, bert_relu, bert_dropout
# batch H1 (labelled before grading)
# LayerNorm after each residual sum, ReLU, dropout 0.5 on both sub-layers' outputs; also fixed
# sinusoidal positions, layers deep-copied from an extra registered one, a head on all
# max_len positions flattened (no diagnosis)
# split: measure
# source: 649453932/Chinese-Text-Classification-Pytorch, models/Transformer.py (Model, Encoder,
# source: Positional_Encoding and Position_wise_Feed_Forward under the stub's names: embed, dim_model,
# source: num_head, num_encoder, pad_size are h, h, heads, n_layers, max_len, hidden 4h, dropout its
# source: config's 0.5; its Multi_Head_Attention is the provided TinySelfAttn, the residual, dropout and
# source: LayerNorm it ended with kept in the layer; ids are the batch, not x[0]; device the ids')
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class Positional_Encoding(nn.Module):
    def __init__(self, embed, pad_size, dropout):
        super(Positional_Encoding, self).__init__()
        self.pe = torch.tensor([[pos / (10000.0 ** (i // 2 * 2.0 / embed)) for i in range(embed)] for pos in range(pad_size)])
        self.pe[:, 0::2] = np.sin(self.pe[:, 0::2])
        self.pe[:, 1::2] = np.cos(self.pe[:, 1::2])
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        out = x + nn.Parameter(self.pe, requires_grad=False).to(x.device)
        out = self.dropout(out)
        return out


class Position_wise_Feed_Forward(nn.Module):
    def __init__(self, dim_model, hidden, dropout=0.0):
        super(Position_wise_Feed_Forward, self).__init__()
        self.fc1 = nn.Linear(dim_model, hidden)
        self.fc2 = nn.Linear(hidden, dim_model)
        self.dropout = nn.Dropout(dropout)
        self.layer_norm = nn.LayerNorm(dim_model)

    def forward(self, x):
        out = self.fc1(x)
        out = F.relu(out)
        out = self.fc2(out)
        out = self.dropout(out)
        out = out + x  # 残差连接
        out = self.layer_norm(out)
        return out


class Encoder(nn.Module):
    def __init__(self, dim_model, num_head, hidden, dropout):
        super(Encoder, self).__init__()
        self.attn = TinySelfAttn(dim_model, num_head)
        self.dropout = nn.Dropout(dropout)
        self.ln1 = nn.LayerNorm(dim_model)
        self.feed_forward = Position_wise_Feed_Forward(dim_model, hidden, dropout)

    def forward(self, x):
        out = self.attn(x)
        out = self.dropout(out)
        out = out + x  # 残差连接
        out = self.ln1(out)
        out = self.feed_forward(out)
        return out


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super(TinyBertForClassification, self).__init__()
        dropout = 0.5
        self.tok_emb = nn.Embedding(vocab, h, padding_idx=vocab - 1)
        self.postion_embedding = Positional_Encoding(h, max_len, dropout)
        self.encoder = Encoder(h, heads, 4 * h, dropout)
        self.layers = nn.ModuleList([
            copy.deepcopy(self.encoder)
            # Encoder(config.dim_model, config.num_head, config.hidden, config.dropout)
            for _ in range(n_layers)])

        self.head = nn.Linear(max_len * h, n_classes)

    def forward(self, ids):
        out = self.tok_emb(ids)
        out = self.postion_embedding(out)
        for encoder in self.layers:
            out = encoder(out)
        out = out.view(out.size(0), -1)
        # out = torch.mean(out, 1)
        out = self.head(out)
        return out
