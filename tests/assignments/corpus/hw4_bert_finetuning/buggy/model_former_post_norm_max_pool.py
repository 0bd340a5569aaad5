# question: TinyBertForClassification
# fails: test_logits_with_reference_weights, test_logits_with_trained_weights, test_documented_training_run
# public: -
# makes: bert_post_norm, bert_relu
# batch G1 (labelled before grading)
# its dropout is 0.0 (inactive); also max pooling over positions and log_softmax returned
# instead of the logits (no diagnosis)
# split: measure
# source: pbloem/former, former/transformers.py and former/modules.py (CTransformer with its defaults
# source: max_pool=True, dropout=0.0: emb, heads, depth, seq_length, num_tokens, num_classes are h, heads,
# source: n_layers, max_len, vocab, n_classes; TransformerBlock is EncoderLayer, its SelfAttention the
# source: provided TinySelfAttn, norm1/norm2 ln1/ln2, toprobs the head; the attention weights it unpacks
# source: from the blocks, which return only x, left out)
import torch
from torch import nn
import torch.nn.functional as F


class EncoderLayer(nn.Module):
    """
    A straightforward transformer block.
    """

    def __init__(self, h, heads, ff_hidden_mult=4, dropout=0.0):
        super().__init__()

        self.attn = TinySelfAttn(h, heads)

        self.ff = nn.Sequential(

            nn.Linear(h, ff_hidden_mult * h),
            nn.ReLU(),
            nn.Linear(ff_hidden_mult * h, h)
        )

        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)

        self.do = nn.Dropout(dropout)

    def forward(self, x):

        attended = self.attn(x)

        x = self.ln1(attended + x)

        x = self.do(x)

        fedforward = self.ff(x)

        x = self.ln2(fedforward + x)

        x = self.do(x)

        return x


class TinyBertForClassification(nn.Module):
    """
    Transformer for classifying sequences
    """

    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2,
                 max_pool=True, dropout=0.0):
        super().__init__()

        self.num_tokens, self.max_pool = vocab, max_pool

        self.tok_emb = nn.Embedding(embedding_dim=h, num_embeddings=vocab)
        self.pos_emb = nn.Embedding(embedding_dim=h, num_embeddings=max_len)

        tblocks = []
        for i in range(n_layers):
            tblocks.append(EncoderLayer(h, heads, dropout=dropout))

        self.layers = nn.Sequential(*tblocks)

        self.head = nn.Linear(h, n_classes)

        self.do = nn.Dropout(dropout)

    def forward(self, x):
        tokens = self.tok_emb(x)
        b, t, e = tokens.size()

        positions = self.pos_emb(torch.arange(t, device=x.device))[None, :, :].expand(b, t, e)
        x = tokens + positions
        x = self.do(x)

        x = self.layers(x)

        x = x.max(dim=1)[0] if self.max_pool else x.mean(dim=1)  # pool over the time dimension

        x = self.head(x)

        return F.log_softmax(x, dim=1)
