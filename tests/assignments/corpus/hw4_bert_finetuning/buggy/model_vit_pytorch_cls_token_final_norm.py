# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: make tok_emb, then pos_emb, before anything else
# makes: -
# batch G1 (labelled before grading)
# an extra learned cls vector prepended and read at position 0, a final LayerNorm, Dropout(0.)
# modules inside ff (ff.3, not ff.2): none of them declared
# split: measure
# source: lucidrains/vit-pytorch, vit_pytorch/vit.py (ViT with its defaults pool='cls', dropout=0.,
# source: emb_dropout=0.: the patch embedding is tok_emb, dim, depth, heads, num_classes are h, n_layers,
# source: heads, n_classes, mlp_dim = 4h; its Attention is the provided TinySelfAttn after its own
# source: LayerNorm (ln1), FeedForward's LayerNorm is ln2 and the rest ff; the layers and the final norm
# source: of its Transformer kept in the model; its position Parameter made an Embedding of max_len + 1)
import torch
from torch import nn


class EncoderLayer(nn.Module):
    def __init__(self, h, heads, dropout=0.):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(
            nn.Linear(h, 4 * h),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(4 * h, h),
            nn.Dropout(dropout)
        )
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)

    def forward(self, x):
        x = self.attn(self.ln1(x)) + x
        x = self.ff(self.ln2(x)) + x
        return x


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2,
                 pool='cls', dropout=0., emb_dropout=0.):
        super().__init__()
        assert pool in {'cls', 'mean'}, 'pool type must be either cls (cls token) or mean (mean pooling)'
        num_cls_tokens = 1 if pool == 'cls' else 0

        self.tok_emb = nn.Embedding(vocab, h)

        self.cls_token = nn.Parameter(torch.randn(1, num_cls_tokens, h))
        self.pos_emb = nn.Embedding(max_len + num_cls_tokens, h)

        self.dropout = nn.Dropout(emb_dropout)

        self.norm = nn.LayerNorm(h)
        self.layers = nn.ModuleList([EncoderLayer(h, heads, dropout) for _ in range(n_layers)])

        self.pool = pool
        self.to_latent = nn.Identity()

        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        x = self.tok_emb(ids)
        b, n, _ = x.shape

        cls_tokens = self.cls_token.expand(b, -1, -1)
        x = torch.cat((cls_tokens, x), dim=1)
        x += self.pos_emb.weight[None, :(n + 1)]
        x = self.dropout(x)

        for layer in self.layers:
            x = layer(x)
        x = self.norm(x)

        x = x.mean(dim = 1) if self.pool == 'mean' else x[:, 0]

        x = self.to_latent(x)
        return self.head(x)
