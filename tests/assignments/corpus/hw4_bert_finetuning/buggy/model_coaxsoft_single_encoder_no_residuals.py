# question: TinyBertForClassification
# fails: test_state_dict_layout, test_parameter_count, test_logits_with_reference_weights, test_logits_with_trained_weights, test_attention_is_bidirectional, test_seeded_construction, test_documented_training_run
# public: parameters, not 28,994
# public: make tok_emb, then pos_emb, before anything else
# makes: bert_no_residuals, bert_dropout
# batch H1 (labelled before grading)
# neither sub-layer adds to its input (each is LayerNorm-ed), the feed-forward ends with an
# active dropout; also one layer whatever n_layers says, a 36-wide feed-forward with the
# dropout before its GELU, a segment row added, an embedding LayerNorm (no diagnosis)
# split: measure
# source: coaxsoft/pytorch_bert, bert/model.py (BERT, JointEmbedding and Encoder under the stub's
# source: names, its classification_layer on the first word as the head, the masked-LM output left
# source: out: vocab_size, dim_inp, attention_heads are vocab, h, heads, dim_out its script's
# source: HIDDEN_SIZE 36; its MultiHeadAttention is the provided TinySelfAttn followed by its norm
# source: (ln1), Encoder's norm is ln2; no attention mask given)
import torch

from torch import nn


class Encoder(nn.Module):

    def __init__(self, dim_inp, dim_out, attention_heads=4, dropout=0.1):
        super(Encoder, self).__init__()

        self.attn = TinySelfAttn(dim_inp, attention_heads)  # batch_size x sentence size x dim_inp
        self.ln1 = nn.LayerNorm(dim_inp)
        self.ff = nn.Sequential(
            nn.Linear(dim_inp, dim_out),
            nn.Dropout(dropout),
            nn.GELU(),
            nn.Linear(dim_out, dim_inp),
            nn.Dropout(dropout)
        )
        self.ln2 = nn.LayerNorm(dim_inp)

    def forward(self, input_tensor: torch.Tensor):
        context = self.ln1(self.attn(input_tensor))
        res = self.ff(context)
        return self.ln2(res)


class TinyBertForClassification(nn.Module):

    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super(TinyBertForClassification, self).__init__()
        dim_out = 36

        self.tok_emb = nn.Embedding(vocab, h)
        self.segment_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(vocab, h)
        self.norm = nn.LayerNorm(h)

        self.layers = nn.ModuleList([Encoder(h, dim_out, heads)])

        self.head = nn.Linear(h, n_classes)

    def forward(self, ids: torch.Tensor):
        # TODO: apply sin - cos functions as stated in `Attention is all you need`
        sentence_size = ids.size(-1)
        pos_tensor = torch.arange(sentence_size, dtype=torch.long)
        pos_tensor = pos_tensor.expand_as(ids)

        segment_tensor = torch.zeros_like(ids)
        segment_tensor[:, sentence_size // 2 + 1:] = 1

        output = self.tok_emb(ids) + self.segment_emb(segment_tensor) + self.pos_emb(pos_tensor)
        embedded = self.norm(output)
        encoded = self.layers[0](embedded)

        first_word = encoded[:, 0, :]
        return self.head(first_word)
