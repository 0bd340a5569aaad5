# question: TinyBertForClassification
# fails: test_logits_with_reference_weights, test_logits_with_trained_weights, test_documented_training_run
# public: -
# diagnosis: bert_post_norm
# Post-norm layers (the original Transformer's): normalise after each residual sum.
from torch import nn


class EncoderLayer(nn.Module):
    """Mistake: post-norm (the original Transformer's), normalising after each sum."""

    def __init__(self, h, heads):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h))
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)

    def forward(self, x):
        x = self.ln1(x + self.attn(x))
        return self.ln2(x + self.ff(x))
