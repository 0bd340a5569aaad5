# question: TinyBertForClassification
# fails: test_state_dict_layout, test_logits_with_reference_weights, test_logits_with_trained_weights, test_seeded_construction, test_documented_training_run
# public: -
# makes: bert_post_norm, bert_relu
# batch E
# also its modules created as attn, ln1, ff, ln2 (no diagnosis)
# split: measure
# source: TecXCTO/nn, src/nn/Attention_&_Transformers/quick_Transformer_Encoder_block.py (TransformerBlock
# source: as EncoderLayer: its SimpleAttention is the provided TinySelfAttn, dim_ff the stub's 4 * h; the
# source: model is the handout's)
from torch import nn


# Quick Transformer Encoder block
class EncoderLayer(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ln1 = nn.LayerNorm(h)
        self.ff = nn.Sequential(
            nn.Linear(h, 4 * h),
            nn.ReLU(),
            nn.Linear(4 * h, h)
        )
        self.ln2 = nn.LayerNorm(h)

    def forward(self, x):
        x = self.ln1(x + self.attn(x))
        x = self.ln2(x + self.ff(x))
        return x
