# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: make tok_emb, then pos_emb, before anything else
# makes: bert_causal
# batch H1 (labelled before grading)
# CLIP's causal mask; also the head reads the position of the largest token id, a final
# LayerNorm, QuickGELU, its own initialisation (no diagnosis)
# split: measure
# source: openai/CLIP, clip/model.py (the text side of CLIP as a classifier: token_embedding,
# source: positional_embedding, Transformer of ResidualAttentionBlock with its causal attn_mask,
# source: ln_final and the features at text.argmax(-1) under the stub's names; width, layers, heads,
# source: context_length are h, n_layers, heads, max_len; its nn.MultiheadAttention is the provided
# source: TinySelfAttn (batch first, so no permutes) given the mask cut to the ids' length, and the
# source: position table to their length; text_projection is the head Linear; its initialisation kept)
from collections import OrderedDict

import torch
from torch import nn


class QuickGELU(nn.Module):
    def forward(self, x: torch.Tensor):
        return x * torch.sigmoid(1.702 * x)


class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model: int, n_head: int, attn_mask: torch.Tensor = None):
        super().__init__()

        self.attn = TinySelfAttn(d_model, n_head)
        self.ff = nn.Sequential(OrderedDict([
            ("0", nn.Linear(d_model, d_model * 4)),
            ("1", QuickGELU()),
            ("2", nn.Linear(d_model * 4, d_model))
        ]))
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.attn_mask = attn_mask

    def attention(self, x: torch.Tensor):
        T = x.shape[1]
        mask = self.attn_mask[:T, :T].to(dtype=x.dtype, device=x.device) if self.attn_mask is not None else None
        return self.attn(x, mask)

    def forward(self, x: torch.Tensor):
        x = x + self.attention(self.ln1(x))
        x = x + self.ff(self.ln2(x))
        return x


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.context_length = max_len
        self.width = h

        self.layers = nn.Sequential(*[ResidualAttentionBlock(h, heads, self.build_attention_mask())
                                      for _ in range(n_layers)])

        self.vocab_size = vocab
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.ln_final = nn.LayerNorm(h)

        self.head = nn.Linear(h, n_classes)

        self.initialize_parameters()

    def initialize_parameters(self):
        nn.init.normal_(self.tok_emb.weight, std=0.02)
        nn.init.normal_(self.pos_emb.weight, std=0.01)

        proj_std = (self.width ** -0.5) * ((2 * len(self.layers)) ** -0.5)
        attn_std = self.width ** -0.5
        fc_std = (2 * self.width) ** -0.5
        for block in self.layers:
            nn.init.normal_(block.attn.qkv.weight, std=attn_std)
            nn.init.normal_(block.attn.out.weight, std=proj_std)
            nn.init.normal_(block.ff[0].weight, std=fc_std)
            nn.init.normal_(block.ff[2].weight, std=proj_std)

        nn.init.normal_(self.head.weight, std=self.width ** -0.5)

    def build_attention_mask(self):
        # lazily create causal attention mask, with full attention between the vision tokens
        # pytorch uses additive attention mask; fill with -inf
        mask = torch.empty(self.context_length, self.context_length)
        mask.fill_(float("-inf"))
        mask.triu_(1)  # zero out the lower diagonal
        return mask

    def forward(self, ids):
        x = self.tok_emb(ids)  # [batch_size, n_ctx, d_model]

        x = x + self.pos_emb.weight[:ids.shape[1]]
        x = self.layers(x)
        x = self.ln_final(x)

        # x.shape = [batch_size, n_ctx, transformer.width]
        # take features from the eot embedding (eot_token is the highest number in each sequence)
        x = self.head(x[torch.arange(x.shape[0]), ids.argmax(dim=-1)])

        return x
