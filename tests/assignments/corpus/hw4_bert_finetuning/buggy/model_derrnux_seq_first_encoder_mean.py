# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: there is no pos_emb.weight
# makes: bert_post_norm, bert_dropout, bert_four_heads, bert_mean_pooling, bert_no_positions
# batch H1 (labelled before grading)
# nn.TransformerEncoder (post-norm, GELU, dropout 0.1) with nhead=4 written in, no positions,
# the mean over positions; also sequence-first, so attention runs across the batch, and a
# head with 2 outputs whatever n_classes says (no diagnosis)
# split: measure
# source: Derrnux/Antibiotic-Resistance-Prediction, classifier.py (SEQClassifier under the stub's names:
# source: vocab_size, embed_dim, attention_layers are vocab, h, n_layers, dim_feedforward 4h; embedding,
# source: encoder, fc renamed tok_emb, layers, head; its nn.TransformerEncoder kept as it builds it)
import torch


class TinyBertForClassification(torch.nn.Module):
    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super(TinyBertForClassification, self).__init__()
        self.tok_emb = torch.nn.Embedding(vocab, h)
        self.layers = torch.nn.TransformerEncoder(
            torch.nn.TransformerEncoderLayer(d_model=h, nhead=4, dim_feedforward=4 * h, activation='gelu'),
            num_layers=n_layers
        )
        self.head = torch.nn.Linear(h, 2)

    def forward(self, x):
        x = self.tok_emb(x)
        x = self.layers(x)
        x = x.mean(dim=1)
        x = self.head(x)
        return x
