# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: must match the size of tensor b
# public: parameters, not 28,994
# public: there is no tok_emb.weight or pos_emb.weight
# makes: bert_mean_pooling
# batch H1 (labelled before grading)
# the mean over positions; also a prepended cls vector, a LayerNorm in the head, an
# nn.Sequential model (no diagnosis)
# split: measure
# source: FrancescoSaverioZuppichini/ViT, main.py (ViT, PatchEmbedding, TransformerEncoder,
# source: TransformerEncoderBlock, ResidualAdd, FeedForwardBlock and ClassificationHead with their
# source: defaults drop_p=0., forward_expansion=4: emb_size, depth, n_classes are h, n_layers, n_classes,
# source: num_heads=heads passed on as its kwargs; its patch projection is tok_emb, its positions cover
# source: max_len + 1 tokens; its MultiHeadAttention is the provided TinySelfAttn; einops' repeat and
# source: Reduce('b n e -> b e', reduction='mean') written as expand and mean(dim=1))
import torch
from torch import nn
from torch import Tensor


class PatchEmbedding(nn.Module):
    def __init__(self, vocab: int, emb_size: int, max_len: int):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, emb_size)
        self.cls_token = nn.Parameter(torch.randn(1, 1, emb_size))
        self.positions = nn.Parameter(torch.randn(max_len + 1, emb_size))

    def forward(self, x: Tensor) -> Tensor:
        b = x.shape[0]
        x = self.tok_emb(x)
        cls_tokens = self.cls_token.expand(b, -1, -1)
        # prepend the cls token to the input
        x = torch.cat([cls_tokens, x], dim=1)
        # add position embedding
        x += self.positions
        return x


class ResidualAdd(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x, **kwargs):
        res = x
        x = self.fn(x, **kwargs)
        x += res
        return x


class FeedForwardBlock(nn.Sequential):
    def __init__(self, emb_size: int, expansion: int = 4, drop_p: float = 0.):
        super().__init__(
            nn.Linear(emb_size, expansion * emb_size),
            nn.GELU(),
            nn.Dropout(drop_p),
            nn.Linear(expansion * emb_size, emb_size),
        )


class TransformerEncoderBlock(nn.Sequential):
    def __init__(self,
                 emb_size: int = 768,
                 drop_p: float = 0.,
                 forward_expansion: int = 4,
                 forward_drop_p: float = 0.,
                 num_heads: int = 8):
        super().__init__(
            ResidualAdd(nn.Sequential(
                nn.LayerNorm(emb_size),
                TinySelfAttn(emb_size, num_heads),
                nn.Dropout(drop_p)
            )),
            ResidualAdd(nn.Sequential(
                nn.LayerNorm(emb_size),
                FeedForwardBlock(
                    emb_size, expansion=forward_expansion, drop_p=forward_drop_p),
                nn.Dropout(drop_p)
            )
            ))


class TransformerEncoder(nn.Sequential):
    def __init__(self, depth: int = 12, **kwargs):
        super().__init__(*[TransformerEncoderBlock(**kwargs)
                           for _ in range(depth)])


class Mean(nn.Module):
    def forward(self, x):
        return x.mean(dim=1)


class ClassificationHead(nn.Sequential):
    def __init__(self, emb_size: int = 768, n_classes: int = 1000):
        super().__init__(
            Mean(),
            nn.LayerNorm(emb_size),
            nn.Linear(emb_size, n_classes))


class TinyBertForClassification(nn.Sequential):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__(
            PatchEmbedding(vocab, h, max_len),
            TransformerEncoder(n_layers, emb_size=h, num_heads=heads),
            ClassificationHead(h, n_classes)
        )
