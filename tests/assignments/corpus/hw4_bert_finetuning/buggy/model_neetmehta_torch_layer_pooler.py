# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: there is no tok_emb.weight or pos_emb.weight
# makes: bert_post_norm, bert_dropout
# batch G1 (labelled before grading)
# nn.TransformerEncoderLayer (post-norm, dropout 0.1, GELU); also an embedding LayerNorm and
# dropout, a token-type row added, xavier init, a tanh pooler (no diagnosis)
# split: measure
# source: neetmehta/bert_from_scratch, bert.py and layers.py (Bert with its BertEmbedding and BertPooler,
# source: d_model, num_heads, num_blocks, vocab_size and max_len the stub's, d_ff = 4h and its default
# source: pd=0.1; its blocks are nn.TransformerEncoderLayer as it builds them, a head on the pooler
# source: output; no token types given, so they are all 0 as its embedding makes them)
import torch
import torch.nn as nn
import torch.nn.functional as F


class BertPooler(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.fc = nn.Linear(hidden_size, hidden_size)
        self.activation = nn.Tanh()

    def forward(self, x):
        first_token_tensor = x[:, 0]
        pooled_output = self.fc(first_token_tensor)
        pooled_output = self.activation(pooled_output)
        return pooled_output


class BertEmbedding(nn.Module):
    def __init__(self, vocab_size, d_model, max_len=512, pd=0.1, norm_eps=1e-12):
        super().__init__()
        self.word_embedding = nn.Embedding(vocab_size, d_model)
        self.positional_embedding = nn.Embedding(max_len, d_model)
        self.token_type_embedding = nn.Embedding(2, d_model)
        self.layer_norm = nn.LayerNorm(d_model, eps=norm_eps)
        self.dropout = nn.Dropout(pd)

    def forward(self, input_ids, token_type_ids=None):
        seq_len = input_ids.size(1)
        batch_size = input_ids.size(0)

        position_ids = (
            torch.arange(seq_len, device=input_ids.device)
            .unsqueeze(0)
            .expand(batch_size, -1)
        )
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)

        x = self.word_embedding(input_ids)
        x += self.positional_embedding(position_ids)
        x += self.token_type_embedding(token_type_ids)
        x = self.layer_norm(x)
        return self.dropout(x)


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2,
                 pd=0.1, norm_eps=1e-12, initialize=True):
        super().__init__()
        self.bert_embedding = BertEmbedding(vocab, h, max_len, pd, norm_eps)
        self.max_len = max_len
        self.layers = nn.ModuleList(
            [
                nn.TransformerEncoderLayer(
                    d_model=h,
                    nhead=heads,
                    dim_feedforward=4 * h,
                    dropout=pd,
                    activation=F.gelu,
                    layer_norm_eps=norm_eps,
                    batch_first=True,
                    bias=True,
                )
                for _ in range(n_layers)
            ]
        )
        self.pooler = BertPooler(h)
        self.head = nn.Linear(h, n_classes)

        if initialize:
            self.init_parameters()

    def init_parameters(self):
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)

    def forward(self, ids, attention_mask=None, token_type_ids=None):
        x = self.bert_embedding(ids, token_type_ids=token_type_ids)
        # src_key_padding_mask is True for padded positions
        key_padding_mask = (attention_mask == 0) if attention_mask is not None else None
        for block in self.layers:
            x = block(x, src_key_padding_mask=key_padding_mask)

        pooler_output = self.pooler(x)
        return self.head(pooler_output)
