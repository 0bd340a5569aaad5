# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: logits have shape (1, 2)
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_no_positions, bert_mean_pooling, bert_post_norm, bert_relu, bert_dropout
# batch I1 (labelled before grading; split by sha1 of the stem, the first half measured)
# nn.TransformerEncoder (post-norm, ReLU, dropout 0.1), no positions, the mean over
# positions; also the logits averaged over the batch, (1, n_classes) (no diagnosis)
# split: measure
# source: vyshakhgnair/TraGT, TraGT-v1/seq_models.py (TransformerModel under the stub's name: vocab_size,
# source: d_model, nhead, num_encoder_layers are vocab, h, heads, n_layers; dim_feedforward, which the stub
# source: does not take, is the task's 4h; its one output is the stub's n_classes; embedding and fc
# source: renamed tok_emb and head)
import torch
import torch.nn as nn


class TinyBertForClassification(nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super(TinyBertForClassification, self).__init__()
        self.tok_emb = nn.Embedding(vocab, h)
        self.transformer_encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model=h, nhead=heads, dim_feedforward=4 * h), num_layers=n_layers)
        self.head = nn.Linear(h, n_classes)

    def forward(self, x):
        x = self.tok_emb(x)
        x = torch.transpose(x, 0, 1)
        x = self.transformer_encoder(x)
        x = torch.mean(x, dim=0)
        x = self.head(x)
        return  x.mean(dim=0, keepdim=True)
