# question: TinyBertForClassification
# fails: test_state_dict_layout, test_logits_with_reference_weights, test_logits_with_trained_weights, test_seeded_construction, test_documented_training_run
# public: -
# makes: bert_post_norm, bert_relu, bert_dropout
# batch G1 (labelled before grading)
# also its own LayerNorm: unbiased std, eps added to the std (no diagnosis)
# split: measure
# source: hyunwoongko/transformer, models/blocks/encoder_layer.py, models/layers/layer_norm.py and
# source: position_wise_feed_forward.py (EncoderLayer with ffn_hidden = 4 * d_model and drop_prob 0.1 as
# source: its conf.py sets them: its MultiHeadAttention is the provided TinySelfAttn, given no mask,
# source: PositionwiseFeedForward the Sequential ff, norm1/norm2 ln1/ln2 with its LayerNorm's gamma and
# source: beta named weight and bias; the model is the handout's)
import torch
from torch import nn


class LayerNorm(nn.Module):
    def __init__(self, d_model, eps=1e-12):
        super(LayerNorm, self).__init__()
        self.weight = nn.Parameter(torch.ones(d_model))
        self.bias = nn.Parameter(torch.zeros(d_model))
        self.eps = eps

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        std = x.std(-1, keepdim=True)

        out = self.weight * (x - mean)
        out /= (std + self.eps)
        out += self.bias
        return out


class EncoderLayer(nn.Module):

    def __init__(self, h, heads, drop_prob=0.1):
        super(EncoderLayer, self).__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ln1 = LayerNorm(d_model=h)
        self.dropout1 = nn.Dropout(p=drop_prob)

        self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.ReLU(), nn.Linear(4 * h, h))
        self.ln2 = LayerNorm(d_model=h)
        self.dropout2 = nn.Dropout(p=drop_prob)

    def forward(self, x, s_mask=None):
        # 1. compute self attention
        _x = x
        x = self.attn(x, s_mask)

        # 2. add and norm
        x = self.dropout1(x)
        x = self.ln1(x + _x)

        # 3. positionwise feed forward network
        _x = x
        x = self.ff(x)

        # 4. add and norm
        x = self.dropout2(x)
        x = self.ln2(x + _x)
        return x
