"""Hidden tests: count_parameters.

The models are built in the student's worker by trusted helper code
(MODELS, read from sent_to_worker/models.py) and passed to the student's
function as handles; the expected counts come from the same code run here,
counted with torch's own model.parameters() (the reference), or are the
figures the notebook derives component by component (BERT-base, hw4's tiny
BERT). The BERT-sized models live on torch's "meta" device: their parameters
have shapes but no storage, so 110 million of them cost nothing to build.
Each handle is declared with its twin, the same model built here (student.twin),
which a failing test's diagnoses count in its place.
"""

import torch

from autograder.testing import (RemoteObject, as_int, expect_equal, expect_int, format_test, once,
                                seeded, sent_source)

QUESTION = "count_parameters"
MODELS = sent_source(__file__, "models")
LAYERS = [("encoder", 8, 2, 32), ("encoder", 12, 3, 5), ("encoder", 64, 8, 256),
          ("decoder", 8, 2, 32), ("decoder", 20, 4, 7), ("decoder", 32, 1, 1),
          ("transformer", 16, 2, 2, 3, 48), ("mha_kv", 12, 3, 5, 7), ("zoo",), ("empty",),
          ("huge", 70_000, 70_000)]
# One property per family (tied weights, buffers, frozen parameters), so that a mistake
# about one does not fail the tests of the others.
TIED = [("tied", 50, 16, 2, 64), ("tied", 7, 4, 1, 3), ("shared", 10, 4), ("shared", 3, 2)]
BUFFERS = [("buffers", 6), ("buffers", 1)]


@once
def local_model(spec: tuple):
    """The model `spec` builds, built here from the same code: the worker's model's
    twin (shared by the batch: only read, never modified)."""
    scope: dict = {"__name__": "grader_models"}
    exec(compile(MODELS, "<models>", "exec"), scope)
    with seeded(0):
        if spec[0] == "frozen":
            return scope["frozen"](*spec[1:])
        return scope["make"](*spec)


@once
def expected(ref, spec: tuple) -> tuple[int, int]:
    """(all parameters, trainable ones) of the model `spec` builds, counted here."""
    model = local_model(spec)
    return (ref.count_parameters(model), ref.count_parameters(model, trainable_only=True))


@once
def _local_linear():
    with seeded(0):  # its initial weights draw from the global RNG, shared by the threads
        return torch.nn.Linear(3, 2)


def _build(student, spec):
    if spec[0] == "frozen":
        model = student.build(MODELS, "frozen", *spec[1:])
    else:
        model = student.build(MODELS, "make", *spec)
    assert isinstance(model, RemoteObject), "the grader's model did not stay in the worker"
    return student.twin(model, lambda: local_model(spec))


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


@format_test
def test_returns_int(student):
    """returns an int (a Python int or a numpy integer) for a Linear(3, 2)"""
    model = student.twin(student.new("torch.nn.Linear", 3, 2), _local_linear)
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
    # The encoder first: its frozen norms' weights tell a count of the trainable ones
    # from a count of the weights (on the attention block alone those two agree).
    for spec in [("frozen", "encoder", 16, 4, 40), ("frozen", "mha_kv", 12, 3, 5, 7)]:
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


def _tiny_bert_part(attr):
    return getattr(local_model(("tiny_bert",)), attr)


def test_tiny_bert(student):
    """counts hw4's tiny BERT and its parts (embeddings, one layer, head)"""
    model = _build(student, ("tiny_bert",))
    what = "count_parameters(<hw4 tiny BERT>)"
    expect_equal(as_int(student.count_parameters(model), what), 28_994, what)
    for attr, count in (("tok_emb", 3_200), ("pos_emb", 512), ("head", 66)):
        part = student.twin(getattr(model, attr), lambda attr=attr: _tiny_bert_part(attr))
        what = f"count_parameters(<hw4 tiny BERT>.{attr})"
        expect_equal(as_int(student.count_parameters(part), what), count, what)
    layers = student.twin(model.layers, lambda: _tiny_bert_part("layers"))
    what = "count_parameters(<hw4 tiny BERT>.layers)"
    expect_equal(as_int(student.count_parameters(layers), what), 2 * 12_608, what)
