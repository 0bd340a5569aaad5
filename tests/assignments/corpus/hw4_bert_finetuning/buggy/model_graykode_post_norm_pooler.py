# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: comes between pos_emb and the layers
# makes: bert_post_norm
# batch E
# a fresh, unregistered LayerNorm after the attention's residual sum; the feed-forward
# has no residual at all, the embeddings a LayerNorm and dropout, the head a tanh
# pooler before it (no diagnosis)
# source: graykode/nlp-tutorial, 5-2.BERT/BERT-Torch.py (Embedding, EncoderLayer and BERT's [CLS]
# source: classifier under the stub's names; its MultiHeadAttention is the provided TinySelfAttn, its
# source: residual and fresh LayerNorm kept in EncoderLayer; no segments, the masked-LM head left out)
import math

import torch
from torch import nn


def gelu(x):
    "Implementation of the gelu activation function by Hugging Face"
    return x * 0.5 * (1.0 + torch.erf(x / math.sqrt(2.0)))


class GELU(nn.Module):
    def forward(self, x):
        return gelu(x)


class EncoderLayer(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        self.h = h
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, 4 * h), GELU(), nn.Linear(4 * h, h))

    def forward(self, enc_inputs):
        residual = enc_inputs
        output = self.attn(enc_inputs)
        enc_outputs = nn.LayerNorm(self.h)(output + residual)
        enc_outputs = self.ff(enc_outputs)  # enc_outputs: [batch_size x len_q x d_model]
        return enc_outputs


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)  # token embedding
        self.pos_emb = nn.Embedding(max_len, h)  # position embedding
        self.norm = nn.LayerNorm(h)
        self.drop = nn.Dropout(0.1)
        self.layers = nn.ModuleList([EncoderLayer(h, heads) for _ in range(n_layers)])
        self.fc = nn.Linear(h, h)
        self.activ1 = nn.Tanh()
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        seq_len = ids.size(1)
        pos = torch.arange(seq_len, dtype=torch.long)
        pos = pos.unsqueeze(0).expand_as(ids)  # (seq_len,) -> (batch_size, seq_len)
        embedding = self.tok_emb(ids) + self.pos_emb(pos)
        output = self.drop(self.norm(embedding))
        for layer in self.layers:
            output = layer(output)
        h_pooled = self.activ1(self.fc(output[:, 0]))  # [batch_size, d_model]
        return self.head(h_pooled)  # [batch_size, 2]
