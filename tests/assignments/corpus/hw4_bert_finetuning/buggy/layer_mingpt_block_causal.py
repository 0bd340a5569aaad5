# question: TinyBertForClassification
# fails: test_state_dict_layout, test_logits_with_reference_weights, test_logits_with_trained_weights, test_seeded_construction, test_documented_training_run
# public: -
# makes: bert_causal, bert_dropout
# batch G1 (labelled before grading)
# GPT's causal block, a dropout ending the feed-forward; also ln1 and ln2 created before attn
# split: measure
# source: karpathy/minGPT, mingpt/model.py at 08c08d8 (Block as EncoderLayer, n_embd and n_head are h and
# source: heads, resid_pdrop its config's 0.1: its CausalSelfAttention is the provided TinySelfAttn, given
# source: the causal mask its attention builds from tril (0 kept, -inf above the diagonal); mlp is ff;
# source: the model is the handout's)
import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    """ an unassuming Transformer block """

    def __init__(self, h, heads, resid_pdrop=0.1):
        super().__init__()
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(
            nn.Linear(h, 4 * h),
            nn.GELU(),
            nn.Linear(4 * h, h),
            nn.Dropout(resid_pdrop),
        )

    def forward(self, x):
        T = x.size(1)
        # causal mask to ensure that attention is only applied to the left in the input sequence
        mask = torch.tril(torch.ones(T, T, device=x.device))
        mask = torch.zeros(T, T, device=x.device).masked_fill(mask == 0, float('-inf'))
        x = x + self.attn(self.ln1(x), mask)
        x = x + self.ff(self.ln2(x))
        return x
