# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: the layers must be an nn.ModuleList named layers
# diagnosis: bert_plain_list
# The layers are kept in a Python list: torch does not register them, so
# they are missing from state_dict() and parameters() and never trained.
import torch
from torch import nn


class Layer(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h))
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layers = [Layer(h, heads) for _ in range(n_layers)]
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        x = self.tok_emb(ids) + self.pos_emb(torch.arange(ids.shape[1]))
        for layer in self.layers:
            x = layer(x)
        return self.head(x[:, 0])
