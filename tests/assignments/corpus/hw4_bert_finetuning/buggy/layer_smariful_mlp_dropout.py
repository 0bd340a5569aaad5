# question: TinyBertForClassification
# fails: test_state_dict_layout, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: -
# makes: bert_dropout
# batch E
# a dropout after the GELU and one ending the feed-forward
# source: SMARIFUL1/Pytorch-DL, BankNote_test/model/encoder_block.py (TransformerEncoderBlock as
# source: EncoderLayer with its defaults mlp_ratio=4.0 and dropout=0.1: its nn.MultiheadAttention is the
# source: provided TinySelfAttn, mlp is ff; the model is the handout's)
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, h, heads, mlp_ratio=4.0, dropout=0.1):
        super().__init__()
        self.ln1 = nn.LayerNorm(h)
        self.attn = TinySelfAttn(h, heads)
        self.ln2 = nn.LayerNorm(h)
        self.ff = nn.Sequential(
            nn.Linear(h, int(h * mlp_ratio)),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(int(h * mlp_ratio), h),
            nn.Dropout(dropout)
        )

    def forward(self, x):
        x2 = self.ln1(x)
        x = x + self.attn(x2)
        x2 = self.ln2(x)
        x = x + self.ff(x2)
        return x
