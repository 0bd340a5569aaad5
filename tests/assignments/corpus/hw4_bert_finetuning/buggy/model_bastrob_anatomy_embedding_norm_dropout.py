# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: comes between pos_emb and the layers
# makes: bert_dropout
# batch H1 (labelled before grading)
# the feed-forward ends with an active Dropout(0.1); also an embedding LayerNorm and
# Dropout(0.5), a dropout on [CLS] before the head (no diagnosis)
# split: measure
# source: bastrob/Transformers, Anatomy/ (TransformerForSequenceClassification, TransformerEncoder,
# source: TransformerEncoderLayer, Embeddings and FeedForward under the stub's names, with the
# source: bert-base-uncased config its main.py loads: hidden_size, num_attention_heads,
# source: num_hidden_layers, max_position_embeddings, num_labels are h, heads, n_layers, max_len,
# source: n_classes, intermediate_size 4h, hidden_dropout_prob 0.1; its MultiHeadAttention is the provided
# source: TinySelfAttn; FeedForward's layers in a Sequential; layer_norm_1/2 renamed ln1/ln2)
import torch
from torch import nn


class TransformerEncoderLayer(nn.Module):
    def __init__(self, hidden_size, num_heads, intermediate_size, hidden_dropout_prob):
        super().__init__()
        self.attn = TinySelfAttn(hidden_size, num_heads)
        self.ff = nn.Sequential(
            nn.Linear(hidden_size, intermediate_size),
            nn.GELU(),
            nn.Linear(intermediate_size, hidden_size),
            nn.Dropout(hidden_dropout_prob),
        )
        self.ln1 = nn.LayerNorm(hidden_size)
        self.ln2 = nn.LayerNorm(hidden_size)

    def forward(self, x):
        # Apply layer normalization and then copy input to query, key, value
        hidden_state = self.ln1(x)
        # Apply attention with a skip connection
        x = x + self.attn(hidden_state)
        # Apply feed-forward layer with a skip connection
        x = x + self.ff(self.ln2(x))
        return x


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        hidden_dropout_prob = 0.1
        # Embeddings
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        self.layer_norm = nn.LayerNorm(h, eps=1e-12)
        self.emb_dropout = nn.Dropout()
        # TransformerEncoder
        self.layers = nn.ModuleList(
            [TransformerEncoderLayer(h, heads, 4 * h, hidden_dropout_prob) for _ in range(n_layers)]
        )
        self.dropout = nn.Dropout(hidden_dropout_prob)
        self.head = nn.Linear(h, n_classes)

    def forward(self, ids):
        # Create position IDs for input sequence
        seq_length = ids.size(-1)
        position_ids = torch.arange(seq_length, dtype=torch.long).unsqueeze(0)
        # Create token and position embeddings
        token_embeddings = self.tok_emb(ids)
        position_embeddings = self.pos_emb(position_ids)
        # Combine token and position embeddings
        embeddings = token_embeddings + position_embeddings
        embeddings = self.layer_norm(embeddings)
        x = self.emb_dropout(embeddings)
        for layer in self.layers:
            x = layer(x)
        x = x[:, 0, :]  # select hidden state of [CLS] token
        x = self.dropout(x)
        x = self.head(x)
        return x
