# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: comes between pos_emb and the layers
# makes: bert_ff_2h
# batch E
# also a LayerNorm on the embeddings and a dropout before the head (no diagnosis)
# split: measure
# source: LydiaRuizMartinez/Encoder, src/models.py (TransformerEncoderLayer, Embeddings and
# source: TransformerForSequenceClassification under the stub's names; its own attention is the provided
# source: TinySelfAttn; intermediate_size and dropout_prob are its README's 64 (= 2 * d_model 32) and 0.1)
import torch
from torch import nn


class EncoderLayer(nn.Module):
    def __init__(self, h, heads):
        super().__init__()
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)
        self.attn = TinySelfAttn(h, heads)
        self.ff = nn.Sequential(nn.Linear(h, 2 * h), nn.GELU(), nn.Linear(2 * h, h))

    def forward(self, x):
        # Apply layer normalization and then apply multi-head attention
        hidden_state = self.attn(self.ln1(x))

        # Apply layer normalization and then apply feed-forward network
        x = x + hidden_state

        hidden_state = self.ff(self.ln2(x))
        x = x + hidden_state

        return x


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layer_norm = nn.LayerNorm(h)
        self.layers = nn.ModuleList([EncoderLayer(h, heads) for _ in range(n_layers)])
        self.dropout = nn.Dropout(p=0.1)
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        # Generate position IDs based on the input sequence length
        batch_size, seq_length = ids.size()
        position_ids = torch.arange(seq_length, device=ids.device)
        position_ids = position_ids.unsqueeze(0).expand(batch_size, seq_length)

        # Combine token and position embeddings
        x = self.layer_norm(self.tok_emb(ids) + self.pos_emb(position_ids))

        for layer in self.layers:
            x = layer(x)

        # Use the first token's output (e.g., CLS token) for classification
        x = x[:, 0, :]

        # Pass through the classification head
        return self.head(self.dropout(x))
