# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: must match the size of tensor b
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_dropout
# batch H1 (labelled before grading)
# the Mlp ends with an active Dropout(0.1); also a prepended cls vector, a final LayerNorm,
# deep-copied layers, xavier init, eps 1e-6 (no diagnosis)
# split: measure
# source: jeonsworld/ViT-pytorch, models/modeling.py (VisionTransformer, Embeddings, Encoder, Block
# source: and Mlp under the stub's names with ViT-B_16's config: hidden_size, num_heads, num_layers are
# source: h, heads, n_layers, mlp_dim 4h, dropout_rate 0.1; its patch Conv2d is tok_emb, its position
# source: Parameter covers max_len + 1 tokens; its Attention is the provided TinySelfAttn; attention_norm,
# source: ffn_norm, ffn renamed ln1, ln2, ff with Mlp's layers in a Sequential)
import copy

import torch
import torch.nn as nn
from torch.nn import Dropout, Linear, LayerNorm


class Block(nn.Module):
    def __init__(self, hidden_size, num_heads, mlp_dim, dropout_rate):
        super(Block, self).__init__()
        self.hidden_size = hidden_size
        self.attn = TinySelfAttn(hidden_size, num_heads)
        self.ff = nn.Sequential(Linear(hidden_size, mlp_dim), nn.GELU(), Dropout(dropout_rate),
                                Linear(mlp_dim, hidden_size), Dropout(dropout_rate))
        nn.init.xavier_uniform_(self.ff[0].weight)
        nn.init.xavier_uniform_(self.ff[3].weight)
        nn.init.normal_(self.ff[0].bias, std=1e-6)
        nn.init.normal_(self.ff[3].bias, std=1e-6)
        self.ln1 = LayerNorm(hidden_size, eps=1e-6)
        self.ln2 = LayerNorm(hidden_size, eps=1e-6)

    def forward(self, x):
        h = x
        x = self.ln1(x)
        x = self.attn(x)
        x = x + h

        h = x
        x = self.ln2(x)
        x = self.ff(x)
        x = x + h
        return x


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super(TinyBertForClassification, self).__init__()
        dropout_rate = 0.1
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Parameter(torch.zeros(1, max_len + 1, h))
        self.cls_token = nn.Parameter(torch.zeros(1, 1, h))
        self.dropout = Dropout(dropout_rate)

        self.layers = nn.ModuleList()
        self.encoder_norm = LayerNorm(h, eps=1e-6)
        for _ in range(n_layers):
            layer = Block(h, heads, 4 * h, dropout_rate)
            self.layers.append(copy.deepcopy(layer))

        self.head = Linear(h, n_classes)

    def forward(self, ids):
        B = ids.shape[0]
        cls_tokens = self.cls_token.expand(B, -1, -1)

        x = self.tok_emb(ids)
        x = torch.cat((cls_tokens, x), dim=1)

        embeddings = x + self.pos_emb
        hidden_states = self.dropout(embeddings)
        for layer_block in self.layers:
            hidden_states = layer_block(hidden_states)
        encoded = self.encoder_norm(hidden_states)
        logits = self.head(encoded[:, 0])
        return logits
