# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: make tok_emb, then pos_emb, before anything else
# makes: bert_post_norm, bert_relu, bert_dropout
# batch G1 (labelled before grading)
# LayerNorm after each residual sum, ReLU, dropout 0.2 on both sub-layers' outputs; also the
# position table created after the layers and a tanh pooler before the head (no diagnosis)
# split: measure
# source: omroot/d2l_pytorch, mylearnings/myd2l/omd2l/nlp/Embedding/Bert/BERTEncoder.py, BERTModel.py and
# source: models/Transformer/TransformerEncoderBlock.py, AddNorm.py, PositionWiseFFN.py (BERTEncoder with its
# source: blocks, then the hidden Linear+Tanh BERTModel puts on position 0, and a head on it; its
# source: MultiHeadAttention is the provided TinySelfAttn, each AddNorm written out (its dropout, then
# source: ln1/ln2), its PositionWiseFFN the Sequential ff with ffn_num_hiddens = 4h, dropout 0.2 as d2l's
# source: BERT is built; no segments, the position Parameter made an Embedding, still created after the
# source: blocks)
import torch
from torch import nn


class EncoderLayer(nn.Module):
    """The Transformer encoder block."""
    def __init__(self, h, heads, dropout=0.2):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.ReLU(), nn.Linear(4 * h, h))
        # the residual connection followed by layer normalization (its AddNorm, twice)
        self.dropout1 = nn.Dropout(dropout)
        self.ln1 = nn.LayerNorm(h)
        self.dropout2 = nn.Dropout(dropout)
        self.ln2 = nn.LayerNorm(h)

    def forward(self, X):
        Y = self.ln1(self.dropout1(self.attn(X)) + X)
        return self.ln2(self.dropout2(self.ff(Y)) + Y)


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.layers = nn.Sequential()
        for i in range(n_layers):
            self.layers.add_module(f"{i}", EncoderLayer(h, heads))
        # In BERT, positional embeddings are learnable
        self.pos_emb = nn.Embedding(max_len, h)
        self.hidden = nn.Sequential(nn.Linear(h, h), nn.Tanh())
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        X = self.tok_emb(ids)
        X = X + self.pos_emb.weight[None, :X.shape[1], :]
        for blk in self.layers:
            X = blk(X)
        # 0 is the index of the '<cls>' token
        return self.head(self.hidden(X[:, 0, :]))
