"""Hidden tests: count_parameters.

The models are built in the student's worker by trusted helper code
(MODELS below) and passed to the student's function as handles; the
expected counts come from the same code run here, counted with torch's own
model.parameters() (the reference), or are the figures the notebook
derives component by component (BERT-base, hw4's tiny BERT). The BERT-sized
models live on torch's "meta" device: their parameters have shapes but no
storage, so 110 million of them cost nothing to build.
"""

from autograder.testing import RemoteObject, as_int, expect_equal, expect_int, once, seeded

QUESTION = "count_parameters"
MODELS = '''
import torch
from torch import nn

META = torch.device("meta")  # shapes without storage

class TiedLM(nn.Module):
    """Embedding, one encoder layer, an output head sharing the embedding's
    weight, and optionally a buffer (a fixed position table)."""

    def __init__(self, vocab, d, heads, d_ff, freeze_embedding=False, buffer=False):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d)
        if buffer:
            self.register_buffer("pe", torch.zeros(32, d))
        self.block = nn.TransformerEncoderLayer(d, heads, d_ff, batch_first=True)
        self.lm_head = nn.Linear(d, vocab)
        self.lm_head.weight = self.embedding.weight  # tied: one Parameter, two modules
        if freeze_embedding:
            self.embedding.weight.requires_grad_(False)


class SharedBlocks(nn.Module):
    """The same layer object used at several depths (ALBERT-style sharing)."""

    def __init__(self, d, repeats):
        super().__init__()
        block = nn.Sequential(nn.Linear(d, 2 * d), nn.ReLU(), nn.Linear(2 * d, d))
        self.blocks = nn.ModuleList([block] * repeats)
        self.norm = nn.LayerNorm(d)


class WithBuffers(nn.Module):
    """BatchNorm's running statistics and a registered table are buffers."""

    def __init__(self, d):
        super().__init__()
        self.conv = nn.Conv1d(d, d, 3)
        self.bn = nn.BatchNorm1d(d)
        self.register_buffer("table", torch.ones(100, d))
        self.register_buffer("steps", torch.zeros((), dtype=torch.long))
        self.scale = nn.Parameter(torch.ones(d))


def tiny_bert(vocab=100, h=32, n_layers=2, max_len=16, n_classes=2):
    """The parameters of hw4's tiny BERT, by part, in module containers: a
    count needs no forward (and no model code of another assignment)."""
    def layer():
        attn = nn.ModuleDict({"qkv": nn.Linear(h, 3 * h, bias=False), "out": nn.Linear(h, h)})
        up_down = nn.Sequential(nn.Linear(h, h * 4), nn.GELU(), nn.Linear(h * 4, h))
        return nn.ModuleDict({"attn": attn, "ff": up_down,
                              "ln1": nn.LayerNorm(h), "ln2": nn.LayerNorm(h)})
    return nn.ModuleDict({"tok_emb": nn.Embedding(vocab, h), "pos_emb": nn.Embedding(max_len, h),
                          "layers": nn.ModuleList(layer() for _ in range(n_layers)),
                          "head": nn.Linear(h, n_classes)})


def table(n, d):
    """An embedding table on the meta device (given its weight: normal_ on meta is slow to load)."""
    return nn.Embedding(n, d, _weight=torch.empty(n, d, device="meta"))


def bert_base(part):
    """Components of BERT-base (d = 768, 12 layers, 12 heads, d_ff = 3072) on the meta device."""
    with META:
        return {
            "encoder_layers": lambda: nn.TransformerEncoder(
                nn.TransformerEncoderLayer(d_model=768, nhead=12, dim_feedforward=3072),
                num_layers=12, enable_nested_tensor=False),
            "token_table": lambda: table(30522, 768),
            "position_table": lambda: table(512, 768),
            "segment_table": lambda: table(2, 768),
            "embedding_norm": lambda: nn.LayerNorm(768),
            "pooler": lambda: nn.Linear(768, 768),
        }[part]()


def frozen(kind, *args):
    model = make(kind, *args)
    for name, p in model.named_parameters():
        if "norm" in name or name.endswith("bias"):
            p.requires_grad_(False)
    return model


def make(kind, *args):
    if kind == "encoder":
        return nn.TransformerEncoderLayer(*args)
    if kind == "decoder":
        return nn.TransformerDecoderLayer(*args)
    if kind == "transformer":
        d, heads, n_enc, n_dec, d_ff = args
        return nn.Transformer(d, heads, n_enc, n_dec, d_ff, batch_first=True)
    if kind == "mha_kv":
        d, heads, kdim, vdim = args
        return nn.MultiheadAttention(d, heads, kdim=kdim, vdim=vdim)
    if kind == "zoo":
        return nn.Sequential(nn.Conv2d(3, 8, 5), nn.ReLU(), nn.LSTM(8, 6, 2),
                             nn.LayerNorm(6, elementwise_affine=False), nn.Linear(6, 4, bias=False),
                             nn.GRU(4, 3, bidirectional=True))
    if kind == "empty":
        return nn.Sequential(nn.ReLU(), nn.Dropout(0.1))
    if kind == "huge":
        with META:  # 4.9 billion parameters, no storage
            return nn.Linear(*args)
    if kind == "tied":
        return TiedLM(*args)
    if kind == "shared":
        return SharedBlocks(*args)
    if kind == "buffers":
        return WithBuffers(*args)
    if kind == "tiny_bert":
        return tiny_bert(*args)
    if kind == "bert_base":
        return bert_base(*args)
    if kind == "frozen":
        return frozen(*args)
    raise ValueError(kind)
'''
LAYERS = [("encoder", 8, 2, 32), ("encoder", 12, 3, 5), ("encoder", 64, 8, 256),
          ("decoder", 8, 2, 32), ("decoder", 20, 4, 7), ("decoder", 32, 1, 1),
          ("transformer", 16, 2, 2, 3, 48), ("mha_kv", 12, 3, 5, 7), ("zoo",), ("empty",),
          ("huge", 70_000, 70_000)]
# One property per family (tied weights, buffers, frozen parameters), so that a mistake
# about one does not fail the tests of the others.
TIED = [("tied", 50, 16, 2, 64), ("tied", 7, 4, 1, 3), ("shared", 10, 4), ("shared", 3, 2)]
BUFFERS = [("buffers", 6), ("buffers", 1)]


@once
def expected(ref, spec: tuple) -> tuple[int, int]:
    """(all parameters, trainable ones) of the model `spec` builds, counted here."""
    scope: dict = {"__name__": "grader_models"}
    exec(compile(MODELS, "<models>", "exec"), scope)
    with seeded(0):
        if spec[0] == "frozen":
            model = scope["frozen"](*spec[1:])
        else:
            model = scope["make"](*spec)
    return (ref.count_parameters(model), ref.count_parameters(model, trainable_only=True))


def _build(student, spec):
    if spec[0] == "frozen":
        model = student.build(MODELS, "frozen", *spec[1:])
    else:
        model = student.build(MODELS, "make", *spec)
    assert isinstance(model, RemoteObject), "the grader's model did not stay in the worker"
    return model


def _label(spec) -> str:
    """What the model is, in words the student can rebuild (no expected count)."""
    kind, args = spec[0], spec[1:]
    if kind == "frozen":
        return _label(args) + ", biases and norms frozen"
    if kind == "tied":
        vocab, d = args[:2]
        frozen = ", embedding frozen" if len(args) > 4 and args[4] else ""
        return (f"language model: Embedding({vocab}, {d}) tied to its output Linear "
                f"and an encoder layer{frozen}")
    return {
        "encoder": lambda: f"TransformerEncoderLayer{args}",
        "decoder": lambda: f"TransformerDecoderLayer{args}",
        "transformer": lambda: "Transformer(d_model={}, nhead={}, {} encoder and {} decoder "
                               "layers, dim_feedforward={})".format(*args),
        "mha_kv": lambda: "MultiheadAttention({}, {}, kdim={}, vdim={})".format(*args),
        "zoo": lambda: "Sequential(Conv2d, ReLU, LSTM, LayerNorm without affine, "
                       "Linear without bias, bidirectional GRU)",
        "empty": lambda: "Sequential(ReLU, Dropout)",
        "huge": lambda: "Linear({}, {}) on the meta device".format(*args),
        "shared": lambda: "one block reused {1} times in a ModuleList (d={0})".format(*args),
        "buffers": lambda: f"Conv1d, BatchNorm1d and registered buffers (d={args[0]})",
    }[kind]()


def _check(ref, student, spec, trainable_only=None):
    model = _build(student, spec)
    if trainable_only is None:
        got, want = student.count_parameters(model), expected(ref, spec)[0]
        what = f"count_parameters(<{_label(spec)}>)"
    else:
        got = student.count_parameters(model, trainable_only=trainable_only)
        want = expected(ref, spec)[1 if trainable_only else 0]
        what = f"count_parameters(<{_label(spec)}>, trainable_only={trainable_only})"
    expect_equal(as_int(got, what), want, what)


def test_returns_int(student):
    """returns an int (a Python int or a numpy integer) for a Linear(3, 2)"""
    model = student.new("torch.nn.Linear", 3, 2)
    expect_int(student.count_parameters(model), "count_parameters(torch.nn.Linear(3, 2))")


def test_torch_modules(ref, student):
    """counts torch's own layers for many widths: encoder and decoder layers, a Transformer, RNNs"""
    for spec in LAYERS:
        _check(ref, student, spec)


def test_tied_weights_count_once(ref, student):
    """a Parameter shared by several modules (tied embedding, reused block) counts once"""
    for spec in TIED:
        _check(ref, student, spec)


def test_buffers_do_not_count(ref, student):
    """buffers (BatchNorm statistics, registered tables) are not parameters"""
    for spec in BUFFERS:
        _check(ref, student, spec)


def test_trainable_only(ref, student):
    """trainable_only=True counts only parameters with requires_grad"""
    specs = [("frozen", "encoder", 16, 4, 40), ("frozen", "transformer", 8, 2, 1, 1, 16),
             ("frozen", "zoo"), ("frozen", "mha_kv", 12, 3, 5, 7)]
    for spec in specs:
        _check(ref, student, spec, trainable_only=True)


def test_frozen_counted_by_default(ref, student):
    """without trainable_only (and with trainable_only=False) frozen parameters count too"""
    for spec in [("frozen", "mha_kv", 12, 3, 5, 7), ("frozen", "encoder", 16, 4, 40)]:
        _check(ref, student, spec)
        _check(ref, student, spec, trainable_only=False)


BERT_BASE = {  # component -> parameters (torch 2.x counts, see the notebook's table)
    "encoder_layers": 85_054_464,  # 12 x 7,087,872
    "token_table": 23_440_896,  # 30,522 x 768
    "position_table": 393_216,  # 512 x 768
    "segment_table": 1_536,  # 2 x 768
    "embedding_norm": 1_536,  # gamma, beta
    "pooler": 590_592,  # 768 x 768 + 768
}


def test_bert_base_components(student):
    """counts each component of BERT-base (layers, embedding tables, pooler) exactly"""
    for part, count in BERT_BASE.items():
        model = _build(student, ("bert_base", part))
        what = f"count_parameters(<BERT-base {part}>)"
        expect_equal(as_int(student.count_parameters(model), what), count, what)


def test_tiny_bert(student):
    """counts hw4's tiny BERT and its parts (embeddings, one layer, head)"""
    model = _build(student, ("tiny_bert",))
    what = "count_parameters(<hw4 tiny BERT>)"
    expect_equal(as_int(student.count_parameters(model), what), 28_994, what)
    for attr, count in (("tok_emb", 3_200), ("pos_emb", 512), ("head", 66)):
        part = getattr(model, attr)
        what = f"count_parameters(<hw4 tiny BERT>.{attr})"
        expect_equal(as_int(student.count_parameters(part), what), count, what)
    layers = model.layers
    what = "count_parameters(<hw4 tiny BERT>.layers)"
    expect_equal(as_int(student.count_parameters(layers), what), 2 * 12_608, what)
