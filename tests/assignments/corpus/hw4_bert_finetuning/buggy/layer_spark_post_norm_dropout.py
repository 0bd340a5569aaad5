# question: TinyBertForClassification
# fails: test_logits_with_reference_weights, test_logits_with_trained_weights, test_documented_training_run
# public: -
# makes: bert_post_norm, bert_dropout
# batch E
# LayerNorm after each residual sum, dropout on both sub-layers' outputs
# split: measure
# source: K7theCompSciMan/S.P.A.R.K, llm/TransformerBlock.py (TransformerBlock as EncoderLayer: its
# source: nn.MultiheadAttention is the provided TinySelfAttn, attention attn, ff_dim the stub's 4 * h; the
# source: model is the handout's)
import torch.nn as nn
class EncoderLayer(nn.Module):
    def __init__(self, h, heads, dropout=0.1):
        super().__init__()
        ff_dim = 4 * h
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(
            nn.Linear(h, ff_dim),
            nn.GELU(),
            nn.Linear(ff_dim, h)
        )
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        attention_output = self.attn(x, mask)
        x = self.ln1(x + self.dropout(attention_output))
        x = self.ln2(x + self.dropout(self.ff(x)))
        return x
