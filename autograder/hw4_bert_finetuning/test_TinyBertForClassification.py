"""Hidden tests: TinyBertForClassification.

The notebook's TinySelfAttn is provided code, not a question: before building
the student's model, a copy of exactly that public cell is bound under that
name, so the model is graded on what the student wrote for this question.
Training runs the reference loop in the grader on the student's model seen
through StudentModule (the worker computes only its forward and backward), so
a bug in train_classifier costs nothing here.
"""

import torch

from autograder.testing import (Fail, StudentError, StudentModule, changed, expect_close,
                                expect_equal, expect_int, expect_shape, expect_tensor, fail,
                                format_test, once)
from autograder.hw4_bert_finetuning import common
from autograder.hw4_bert_finetuning import reference as ref
from autograder.hw4_bert_finetuning.common import DEEP, DEFAULTS, MODEL_SEED, SMALL

QUESTION = "TinyBertForClassification"
CONFIGS = (DEFAULTS, DEEP, SMALL)
LAYER_KEYS = ("attn.qkv.weight", "attn.out.weight", "attn.out.bias", "ff.0.weight", "ff.0.bias",
              "ff.2.weight", "ff.2.bias", "ln1.weight", "ln1.bias", "ln2.weight", "ln2.bias")


def _describe(config):
    return "TinyBertForClassification(" + ", ".join(f"{k}={v}" for k, v in config) + ")"


def _build(student, config=DEFAULTS, seed=None):
    student.define("TinySelfAttn", common.provided_attention(student))
    if seed is not None:
        student.seed(seed)
    return common.expect_model(student.TinyBertForClassification(**dict(config)),
                               _describe(config))


def _state(model, what):
    state = model.state_dict()
    if not isinstance(state, dict):
        fail(f"{what}.state_dict() did not return a dict of tensors")
    return state


def _loaded(student, config, state):
    what = _describe(config)
    model = _build(student, config)
    try:
        model.load_state_dict(state)
    except StudentError as exc:
        fail(f"{what}: load_state_dict of a state dict with the required keys and shapes "
             f"failed ({exc.type_name}: {exc.message[:200]})")
    return model


def _ids(seed, batch, t, vocab):
    ids = torch.randint(0, vocab, (batch, t), generator=torch.Generator().manual_seed(seed))
    ids[0, 0], ids[-1, -1] = 0, vocab - 1  # the first and the last token id
    return ids


def _expect_logits(model, ids, expected, what):
    """The model's logits on `ids` are close to `expected`. Once they are not, the same
    ids are sent again (a passing model is called once): logits that change from call to
    call come from a forward that draws random numbers, which is said first, since no
    weights can make such a model agree."""
    logits = expect_tensor(model(ids), what)
    try:
        expect_close(logits, expected, what, rtol=common.LOGITS_RTOL, atol=common.LOGITS_ATOL)
    except Fail:
        try:
            again = model(ids)
        except StudentError:
            again = None  # the first answer's failure is the one to report
        if _random(logits, again):
            fail(f"{what}: the same ids twice gave different logits: the forward pass draws "
                 f"random numbers (the model is in training mode here, as it is built); "
                 f"its logits depend on its weights and the ids alone")
        raise


def _random(first, again) -> bool:
    """Whether two answers to the same ids are finite logits of one shape that differ
    beyond rounding (nan or a wrong shape is expect_close's to report)."""
    return isinstance(again, torch.Tensor) and again.shape == first.shape \
        and bool(torch.isfinite(first).all() and torch.isfinite(again).all()) \
        and changed(first, again, "logits", rtol=1e-5, atol=1e-6)


@once
def _cases(seed, config):
    """[(ids, reference logits)] for the reference model built after torch.manual_seed(seed)."""
    cfg = common.config_of(config)
    reference = common.reference_model(seed, config)
    shapes = ((1, 1), (3, cfg["max_len"]), (8, 5), (64, cfg["max_len"] - 1))  # (batch, T)
    cases = []
    for j, (batch, t) in enumerate(shapes):
        ids = _ids(100 * seed + j, batch, t, cfg["vocab"])
        with torch.no_grad():
            cases.append((ids, reference(ids)))
    return cases


@once
def _trained_cases():
    """(trained state, [(name, ids, logits)]) of the reference model after the documented run."""
    _, state = common.reference_run(MODEL_SEED, DEFAULTS, common.DOCUMENTED_DATA, 30, 1e-3)
    reference = common.reference_model(MODEL_SEED, DEFAULTS, state)
    inputs = (("the training ids (50, 10)", common.documented_data()[0]),
              ("new ids (32, 16)", _ids(7, 32, 16, 100)))
    with torch.no_grad():
        return state, [(name, x, reference(x)) for name, x in inputs]


@format_test
def test_state_dict_layout(student):
    """state_dict keys are exactly the required ones, in order, with the right shapes"""
    for config in (DEFAULTS, DEEP):
        what = _describe(config)
        state = _state(_build(student, config), what)
        n_layers = dict(config).get("n_layers", 2)
        keys = ["tok_emb.weight", "pos_emb.weight",
                *(f"layers.{i}.{k}" for i in range(n_layers) for k in LAYER_KEYS),
                "head.weight", "head.bias"]
        expect_equal(list(state), keys, f"{what}.state_dict() keys")
        for key, value in common.reference_state(0, config).items():
            expect_shape(expect_tensor(state[key], f"{what}: {key}"), tuple(value.shape),
                         f"{what}: {key}")


@format_test
def test_parameter_count(student):
    """the number of parameters, with the default sizes and with others"""
    for config in CONFIGS:
        what = _describe(config)
        model = _build(student, config)
        params = student.list(model.parameters())
        got = expect_int(sum(expect_tensor(p, f"{what}: a parameter").numel() for p in params),
                         f"{what}: sum of p.numel() over parameters()")
        expected = sum(v.numel() for v in common.reference_state(0, config).values())
        expect_equal(got, expected, f"{what}: number of parameters")


def test_logits_with_reference_weights(student):
    """with the reference's weights, logits match on many batches, lengths and sizes"""
    for seed, config in enumerate(CONFIGS):
        model = _loaded(student, config, common.reference_state(seed, config))
        for ids, expected in _cases(seed, config):
            _expect_logits(model, ids, expected,
                           f"{_describe(config)} on ids of shape {tuple(ids.shape)}")


def test_logits_with_trained_weights(student):
    """with the reference's weights after the documented training run, logits match"""
    state, cases = _trained_cases()
    model = _loaded(student, DEFAULTS, state)
    for what, ids, expected in cases:
        _expect_logits(model, ids, expected, what)


def test_attention_is_bidirectional(student):
    """changing only the last token changes the [CLS] logits"""
    model = _loaded(student, DEFAULTS, common.reference_state(3))
    ids = _ids(3, 4, 9, 100)
    last = ids.clone()
    last[:, -1] = (last[:, -1] + 1) % 100
    a = expect_tensor(model(ids), "logits")
    b = expect_tensor(model(last), "logits")
    if not changed(a, b, "logits", atol=1e-6):
        fail("changing the last token left the logits unchanged: position 0 cannot see the "
             "tokens after it (a causal mask, or the head reads something else)")
    first = ids.clone()  # and [CLS]'s logits read [CLS] itself, not the last token alone
    first[:, 0] = (first[:, 0] + 1) % 100
    if not changed(a, expect_tensor(model(first), "logits"), "logits", atol=1e-6):
        fail("changing the first token left the logits unchanged: they do not read "
             "position 0")


@format_test
def test_seeded_construction(student):
    """built right after torch.manual_seed(s), its weights equal the reference's"""
    for seed, config in ((MODEL_SEED, DEFAULTS), (5, DEEP)):
        what = f"after torch.manual_seed({seed}), {_describe(config)}"
        state = _state(_build(student, config, seed=seed), what)
        expected = common.reference_state(seed, config)
        expect_equal(list(state), list(expected), f"{what}: state_dict keys")
        for key, value in expected.items():
            expect_close(state[key], value, f"{what}: {key}", rtol=0, atol=0)


def test_documented_training_run(student):
    """from the weights of torch.manual_seed(42), the lesson's run (Adam 1e-3, 30 epochs) gives the documented losses"""
    # The initial weights are loaded, not built from the seed: the construction order is
    # test_seeded_construction's subject.
    ids, labels = common.documented_data()
    what = f"{_describe(DEFAULTS)} on the training ids {tuple(ids.shape)}"

    def logits(value):
        expect_shape(expect_tensor(value, what), (len(ids), 2), what)
        return value
    model = StudentModule(student, _loaded(student, DEFAULTS, common.reference_state(MODEL_SEED)),
                          logits, targets=labels)
    losses = ref.train_classifier(model, ids, labels, epochs=30, lr=1e-3)
    common.expect_trace(losses, common.documented_trace(), "losses of the 30 epochs")
