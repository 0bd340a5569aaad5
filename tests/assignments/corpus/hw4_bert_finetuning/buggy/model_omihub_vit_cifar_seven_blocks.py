# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: must match the size of tensor b
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_dropout
# batch H1 (labelled before grading)
# the feed-forward (h wide, a GELU after each Linear) ends with an active Dropout(0.1); also
# seven layers and eight heads whatever n_layers and heads say (not the declared two and four),
# a prepended cls vector, a LayerNorm in the head (no diagnosis)
# split: measure
# source: omihub777/ViT-CIFAR, vit.py and layers.py (ViTSmall and TransformerEncoder under the stub's
# source: names: its patch Linear is tok_emb, hidden is h, its seven TransformerEncoder blocks and
# source: head=8 kept; its MultiHeadSelfAttention is the provided TinySelfAttn; la1, la2, mlp, fc
# source: renamed ln1, ln2, ff, head; its pos_emb Parameter covers max_len tokens plus [CLS])
import torch
import torch.nn as nn


class TransformerEncoder(nn.Module):
    def __init__(self, feats: int, head: int = 8):
        super(TransformerEncoder, self).__init__()
        self.ln1 = nn.LayerNorm(feats)
        self.attn = TinySelfAttn(feats, head)
        self.ln2 = nn.LayerNorm(feats)
        self.ff = nn.Sequential(
            nn.Linear(feats, feats),
            nn.GELU(),
            nn.Dropout(0.1),
            nn.Linear(feats, feats),
            nn.GELU(),
            nn.Dropout(0.1),
        )

    def forward(self, x):
        out = self.attn(self.ln1(x)) + x
        out = self.ff(self.ln2(out)) + out
        return out


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super(TinyBertForClassification, self).__init__()
        hidden = h

        self.tok_emb = nn.Embedding(vocab, hidden)
        self.cls_token = nn.Parameter(torch.randn(1, 1, hidden))
        self.pos_emb = nn.Parameter(torch.randn(1, max_len + 1, hidden))
        self.layers = nn.Sequential(
            TransformerEncoder(hidden),
            TransformerEncoder(hidden),
            TransformerEncoder(hidden),
            TransformerEncoder(hidden),
            TransformerEncoder(hidden),
            TransformerEncoder(hidden),
            TransformerEncoder(hidden)
        )
        self.head = nn.Sequential(
            nn.LayerNorm(hidden),
            nn.Linear(hidden, n_classes)  # for cls_token
        )

    def forward(self, ids):
        out = torch.cat([self.cls_token.repeat(ids.size(0), 1, 1), self.tok_emb(ids)], dim=1)
        out = out + self.pos_emb
        out = self.layers(out)
        out = out[:, 0]
        out = self.head(out)
        return out
