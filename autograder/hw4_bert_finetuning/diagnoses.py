"""Known mistakes of hw4_bert_finetuning, each explained for the student.

The model's mistakes are models: the grader builds one, in the trusted process
only, and drives it as the failing test drove the student's (built under the
same seeds, weights loaded, logits read; engine/diagnoses/), with the
provided TinySelfAttn the tests bind in the worker. train_classifier takes a
model, a handle in the worker: its mistakes are signs read from the recorded
losses (Diagnosis.replay False), true only of answers no correct loop gives.
The corpus's buggy variants (tests/assignments/corpus/hw4_bert_finetuning/buggy/)
make them. Sections are the master's headings.
"""
import inspect
import itertools
import math
import numbers
from dataclasses import replace

import torch
from torch import nn

from autograder.hw4_bert_finetuning import common
from autograder.hw4_bert_finetuning import reference as ref
from autograder.hw4_bert_finetuning.provided import TinySelfAttn
from autograder.testing import Diagnosis, answers_vary, combined, once

PART1 = "Part 1: one encoder layer"
PART2 = "Part 2: embeddings in, [CLS] out"
PART3 = "Part 3: the fine-tuning loop"


class _Layer(nn.Module):
    """EncoderLayer, with the switches of the model's mistakes."""

    def __init__(self, h, heads, model):
        super().__init__()
        self.model = [model]  # its switches (a list: not a submodule)
        self.attn = TinySelfAttn(h, 4 if model.four_heads else heads)
        width = 2 * h if model.ff_2h else 4 * h
        where = model.dropout  # False, or where its dropouts are (DROPOUTS)
        self.ff = nn.Sequential(
            nn.Linear(h, width), nn.ReLU() if model.relu else nn.GELU(),
            *([nn.Dropout(0.1)] if where in ("activation", "both") else []),
            nn.Linear(width, h), *([nn.Dropout(0.1)] if where in ("end", "both") else []))
        self.ln1 = nn.LayerNorm(h)
        self.ln2 = nn.LayerNorm(h)
        self.drop = nn.Dropout(0.1) if where == "sublayers" else nn.Identity()

    def forward(self, x):
        m = self.model[0]
        T = x.shape[1]
        mask = torch.triu(torch.full((T, T), float("-inf")), diagonal=1) if m.causal else None
        if m.post_norm:
            x = self.ln1(x + self.drop(self.attn(x, mask)))
            return self.ln2(x + self.drop(self.ff(x)))
        a = self.drop(self.attn(self.ln1(x), mask))
        x = a if m.no_residuals or m.no_attn_residual else x + a
        f = self.drop(self.ff(self.ln2(x)))
        return f if m.no_residuals else x + f


DROPOUTS = ("end", "activation", "both", "sublayers")
"""Where students leave a dropout in the layer: ending the feed-forward, after its
activation, both, or on each sub-layer's output before it is added (the original
Transformer's); each is a witness of bert_dropout. (On the layer's output or on the
embeddings' sum, as witnesses too, they doubled the cost of diagnosing the model's
failing tests and named no more of the measured variants.)"""


class _Bert(nn.Module):
    """TinyBertForClassification with the switches its mistakes flip."""

    four_heads = ff_2h = relu = dropout = post_norm = causal = False
    no_residuals = no_attn_residual = two_layers = plain_list = shared = head_first = False
    positions, scale, pooling = True, False, "cls"

    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        head = nn.Linear(h, n_classes) if self.head_first else None
        self.tok_emb = nn.Embedding(vocab, h)
        self.pos_emb = nn.Embedding(max_len, h)
        n = 2 if self.two_layers else n_layers
        layers = [_Layer(h, heads, self)] * n if self.shared else \
            [_Layer(h, heads, self) for _ in range(n)]
        self.layers = layers if self.plain_list else nn.ModuleList(layers)
        self.head = head if head is not None else nn.Linear(h, n_classes)

    def forward(self, ids):
        x = self.tok_emb(ids) * (math.sqrt(self.tok_emb.embedding_dim) if self.scale else 1)
        if self.positions:
            x = x + self.pos_emb(torch.arange(ids.shape[1]))
        for layer in self.layers:
            x = layer(x)
        return self.head(x.mean(dim=1) if self.pooling == "mean" else
                         x[:, -1] if self.pooling == "last" else x[:, 0])


def _mistake(name, **switches):
    return type(name, (_Bert,), {**switches, "switches": switches})


def _dropout_witnesses(name, switches) -> tuple:
    """The mistake `name` (its switches, a dropout among them) with the dropout in each
    other place of DROPOUTS."""
    return tuple(_mistake(name, **{**switches, "dropout": where}) for where in DROPOUTS[1:])


bert_causal = _mistake("bert_causal", causal=True)
bert_dropout = _mistake("bert_dropout", dropout="end")
bert_ff_2h = _mistake("bert_ff_2h", ff_2h=True)
bert_four_heads = _mistake("bert_four_heads", four_heads=True)
bert_head_first = _mistake("bert_head_first", head_first=True)
bert_two_layers = _mistake("bert_two_layers", two_layers=True)
bert_last_token = _mistake("bert_last_token", pooling="last")
bert_plain_list = _mistake("bert_plain_list", plain_list=True)
bert_mean_pooling = _mistake("bert_mean_pooling", pooling="mean")
bert_no_attn_residual = _mistake("bert_no_attn_residual", no_attn_residual=True)
bert_no_positions = _mistake("bert_no_positions", positions=False)
bert_no_residuals = _mistake("bert_no_residuals", no_residuals=True)
bert_post_norm = _mistake("bert_post_norm", post_norm=True)
bert_relu = _mistake("bert_relu", relu=True)
bert_scaled_tokens = _mistake("bert_scaled_tokens", scale=True)
bert_shared_layer = _mistake("bert_shared_layer", shared=True)


def _epochs(model, ids, labels, epochs=30, lr=1e-3):
    return epochs


_SIGNATURE = inspect.signature(ref.train_classifier)


def _runs(calls):
    """(epochs asked, the list answered) of the calls answered with a list or tuple."""
    for args, kwargs, answer in calls:
        if isinstance(answer, (list, tuple)):
            try:
                epochs = _epochs(*args, **kwargs)
            except TypeError:
                continue
            if isinstance(epochs, numbers.Integral) and not isinstance(epochs, bool):
                yield int(epochs), answer


def _a_loss(x) -> bool:
    """One epoch's loss: a number, or a tensor of one (an answer of other things, such as
    (train losses, validation losses), is not counted in epochs)."""
    if isinstance(x, torch.Tensor):
        return x.numel() == 1
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def tc_one_epoch_short(calls):
    return any(epochs >= 1 and len(losses) == epochs - 1 for epochs, losses in _runs(calls))


def tc_zero_epochs_step(calls):
    return any(epochs == 0 and len(losses) == 1 for epochs, losses in _runs(calls))


def tc_epochs_ignored(calls):
    """A family: every run answers as many losses, whatever `epochs` asked (a loop over
    a fixed count); with one run, the stub's default 30 where another count was asked.
    Not read as this mistake: a run that answers as many as it asked (a loop that stops
    early gives that too), nor one loss whatever the count (a loop that runs its epochs
    and answers one summary loss gives that too)."""
    runs = [(epochs, losses) for epochs, losses in _runs(calls) if all(map(_a_loss, losses))]
    lengths = {len(losses) for _, losses in runs}
    return bool(runs) and len(lengths) == 1 and lengths != {1} \
        and all(epochs != len(losses) for epochs, losses in runs) \
        and (len({epochs for epochs, _ in runs}) > 1 or lengths == {30})


def tc_loss_tensors(calls):
    return any(any(isinstance(x, torch.Tensor) for x in losses) for _, losses in _runs(calls))


# train_classifier's loops, as students write them wrong: each is run in the trusted
# process on the reference model and the data of the test that failed, and named when
# the student's losses are its losses: test_epochs_and_learning_rate's (small, 5 and 12
# epochs: about 0.05 s a run, once per batch) for a loop that ignores its arguments;
# the documented run's for a loop that trains otherwise, which uses its arguments and
# fails that test alone: its first PREFIX epochs (30 epochs of the default model would
# cost ten times as much, once per batch).
LOOP_DATA = ((11, common.SMALL, (7, 16, 6, 30, 3)),)
"""(model seed, config, data key) of the runs whose losses are compared."""
DOCUMENTED_DATA = ((common.MODEL_SEED, common.DEFAULTS, common.DOCUMENTED_DATA),)
"""The documented run's: compared for the loops that train otherwise (_loop_sign)."""
PREFIX = 5
"""Epochs of the documented run compared: a loop's first losses do not depend on how
many follow."""
OTHER_RATES = (1e-3, 1e-4, 5e-5, 3e-5, 2e-5, 1e-2)
"""Learning rates an ignored `lr` is found at: Adam's default (and the stub's), and
those fine-tuning recipes hard-code."""


@once
def _loop_trace(loop: str, model_seed: int, config: tuple, data_key: tuple, epochs: int,
                lr: float) -> tuple:
    """The losses of one of the loops below on the reference model."""
    model = common.reference_model(model_seed, config)
    ids, labels = common.data(*data_key)
    make = (lambda: torch.optim.SGD(model.parameters(), lr=lr)) if loop == "sgd" else \
        (lambda: torch.optim.Adam(model.parameters(), lr=lr))
    opt, loss_fn, losses = make(), nn.CrossEntropyLoss(), []
    for _ in range(epochs):
        if loop == "fresh_optimizer":
            opt = make()
        if loop != "no_zero_grad":
            opt.zero_grad()
        loss = loss_fn(model(ids), labels)
        loss.backward()
        opt.step()
        if loop == "loss_after_step":
            with torch.no_grad():
                loss = loss_fn(model(ids), labels)
        losses.append(loss.item())
    return tuple(losses)


def _training_calls(calls, data=LOOP_DATA):
    """(model seed, config, data key, epochs, lr, losses) of each call on `data`'s
    data that answered a list of numbers; None where a call is of another kind."""
    for args, kwargs, answer in calls:
        try:
            bound = _SIGNATURE.bind(*args, **kwargs)
        except TypeError:
            yield None
            continue
        bound.apply_defaults()
        given = bound.arguments
        epochs, lr = given["epochs"], given["lr"]
        known = [(seed, config, key) for seed, config, key in data
                 if _same_data(given["ids"], given["labels"], key)]
        if not known or not isinstance(answer, (list, tuple)) or isinstance(epochs, bool) \
                or not isinstance(epochs, numbers.Integral) or not 0 < epochs <= 30 \
                or isinstance(lr, bool) or not isinstance(lr, numbers.Real) \
                or not all(isinstance(x, numbers.Real) for x in answer):
            yield None
            continue
        yield (*known[0], int(epochs), float(lr), tuple(float(x) for x in answer))


def _same_data(ids, labels, key) -> bool:
    want_ids, want_labels = common.data(*key)
    return all(isinstance(t, torch.Tensor) and t.shape == w.shape and t.dtype == w.dtype
               and bool((t == w).all()) for t, w in ((ids, want_ids), (labels, want_labels)))


def _trace_matches(losses, trace) -> bool:
    return len(losses) == len(trace) and all(abs(a - b) <= common.TRACE_ATOL
                                              for a, b in zip(losses, trace))


def _loop_sign(loop: str):
    def sign(calls):
        runs = list(_training_calls(calls, LOOP_DATA + DOCUMENTED_DATA))
        return bool(runs) and None not in runs and all(_loop_matches(loop, *run) for run in runs)
    sign.__name__ = f"tc_{loop}"
    return sign


def _loop_matches(loop, seed, config, key, epochs, lr, losses) -> bool:
    """The losses are the loop's: all of them; on the documented run's data, as many as
    asked and the first PREFIX."""
    if (seed, config, key) in DOCUMENTED_DATA:
        return _starts_as(loop, seed, config, key, epochs, lr, losses)
    return _trace_matches(losses, _loop_trace(loop, seed, config, key, epochs, lr))


def _starts_as(loop, seed, config, key, epochs, lr, losses) -> bool:
    """As many losses as epochs asked, and the first PREFIX of them the loop's: what
    follows costs a longer run to compare, and a schedule may change it."""
    return len(losses) == epochs and _begins_as(loop, seed, config, key, lr, losses)


def _begins_as(loop, seed, config, key, lr, losses) -> bool:
    """The first PREFIX losses (or as many as there are) are the loop's at `lr`."""
    return _trace_matches(losses[:PREFIX],
                          _loop_trace(loop, seed, config, key, min(len(losses), PREFIX), lr))


tc_no_zero_grad = _loop_sign("no_zero_grad")
tc_sgd = _loop_sign("sgd")
tc_fresh_optimizer = _loop_sign("fresh_optimizer")
tc_loss_after_step = _loop_sign("loss_after_step")


RATE_WITNESSES = 3
"""Losses a run must answer for its rate to be read: the first is the untrained model's,
the same at every rate."""


def tc_lr_ignored(calls):
    """A family: every run's first losses (up to PREFIX, at least RATE_WITNESSES of them)
    are the correct loop's at one learning rate of OTHER_RATES, the same in every run,
    that is not the one given. How many follow is not read (a loop that ignores `epochs`
    too makes both mistakes), nor what they are: a schedule that decays the fixed rate
    after a few epochs (StepLR) changes the later losses, not the rate the loop starts
    from. Or, whatever the loop's optimizer: two runs of one model on one data at two
    rates whose losses are the same (_rate_makes_no_difference)."""
    runs = list(_training_calls(calls))
    if not runs or None in runs or any(len(losses) < RATE_WITNESSES for *_, losses in runs):
        return False
    return _rate_makes_no_difference(runs) or any(
        all(not math.isclose(lr, rate) and _begins_as("adam", seed, config, key, rate, losses)
            for seed, config, key, _, lr, losses in runs) for rate in OTHER_RATES)


def _rate_makes_no_difference(runs) -> bool:
    """Two runs from the same weights on the same data, at learning rates that differ,
    whose first losses (as many as both have) are the same within TRACE_ATOL and move
    over the epochs: the loop trains, but not at the rate it is given (a correct loop's
    second loss already differs; one that never trains answers the same losses at any
    rate, and is no sign of this)."""
    for (*start, _, lr, losses), (*other_start, _, other_lr, other) in \
            itertools.combinations(runs, 2):
        shared = min(len(losses), len(other))
        if start != other_start or math.isclose(lr, other_lr) or shared < RATE_WITNESSES:
            continue
        first, second = losses[:shared], other[:shared]
        if max(first) - min(first) > common.TRACE_ATOL and all(
                abs(a - b) <= common.TRACE_ATOL for a, b in zip(first, second)):
            return True
    return False


_MODEL = "TinyBertForClassification"
DROPOUT_LEFT = ("a dropout is left active (in the feed-forward, on a sub-layer's output or on "
                "the embeddings), so the logits change from call to call; the model has no "
                "dropout: its feed-forward is exactly Linear, GELU, Linear")

DIAGNOSES = [
    Diagnosis(_MODEL, bert_causal,
              "the layers' attention gets a causal mask; the encoder is bidirectional: "
              "never pass a mask, so that position 0 can gather the whole sequence", PART1),
    Diagnosis(_MODEL, bert_dropout, DROPOUT_LEFT, "Question 1",
              witnesses=_dropout_witnesses("bert_dropout", bert_dropout.switches)),
    # the same mistake, read from the logits alone, whatever the rest of the model: they
    # vary from call to call (a replay needs the whole model's recipe)
    answers_vary(_MODEL, DROPOUT_LEFT, "Question 1", "bert_dropout"),
    Diagnosis(_MODEL, bert_ff_2h,
              "the feed-forward's hidden width is 2h; it goes up to 4h features and back "
              "to h", PART1),
    Diagnosis(_MODEL, bert_four_heads,
              "every layer has four heads, whatever `heads` says; pass `heads` on to "
              "TinySelfAttn(h, heads)", "Question 1"),
    Diagnosis(_MODEL, bert_head_first,
              "the head is created before the embeddings; the order of creation fixes "
              "which random numbers each weight gets: tok_emb, pos_emb, the layers, then "
              "the head", "Question 1"),
    Diagnosis(_MODEL, bert_two_layers,
              "the model always has two layers, whatever `n_layers` says; build "
              "`n_layers` EncoderLayer", "Question 1"),
    Diagnosis(_MODEL, bert_last_token,
              "the head reads the last position; it reads the vector at position 0, the "
              "[CLS] position, which bidirectional attention lets see the whole sequence",
              PART2),
    Diagnosis(_MODEL, bert_plain_list,
              "the layers are kept in a Python list, which PyTorch does not see: they are "
              "missing from state_dict() and parameters() and never trained; use "
              "nn.ModuleList", "Question 1"),
    Diagnosis(_MODEL, bert_mean_pooling,
              "the head reads the mean over the positions; it reads the vector at "
              "position 0, the [CLS] position", PART2),
    Diagnosis(_MODEL, bert_no_attn_residual,
              "the attention's output replaces x instead of being added to it; each "
              "sub-layer adds its update to the stream, x + Attn(LN1(x))", PART1),
    Diagnosis(_MODEL, bert_no_positions,
              "the position embeddings are never added; without them self-attention sees "
              "the tokens as a set and cannot tell their order", PART2),
    Diagnosis(_MODEL, bert_no_residuals,
              "neither sub-layer adds its output to x; the layer writes updates into the "
              "residual stream, x + Attn(LN1(x)) then x + FF(LN2(x))", PART1),
    Diagnosis(_MODEL, bert_post_norm,
              "the layer normalises after each residual sum (post-norm); here each "
              "sub-layer reads a LayerNorm-ed copy and adds to the stream (pre-norm)",
              PART1),
    Diagnosis(_MODEL, bert_relu,
              "the feed-forward uses ReLU; it uses nn.GELU()", PART1),
    Diagnosis(_MODEL, bert_scaled_tokens,
              "the token embeddings are multiplied by sqrt(h); the stream starts as the "
              "plain sum of the token and position embeddings", PART2),
    Diagnosis(_MODEL, bert_shared_layer,
              "one layer object is repeated n_layers times, so the layers share their "
              "weights; create a new EncoderLayer for each", "Question 1"),
    Diagnosis("train_classifier", tc_one_epoch_short,
              "the loop runs one epoch too few; run `epochs` epochs and return their "
              "`epochs` losses", "Question 2", replay=False),
    Diagnosis("train_classifier", tc_zero_epochs_step,
              "epochs=0 still trains once (the count is checked after the step); with 0 "
              "epochs the model is left as it is and the list of losses is empty",
              "Question 2", replay=False),
    Diagnosis("train_classifier", tc_epochs_ignored,
              "the loop runs a fixed number of epochs whatever `epochs` says; loop "
              "`for _ in range(epochs)` and return that many losses", "Question 2",
              replay=False),
    Diagnosis("train_classifier", tc_loss_tensors,
              "the losses are returned as tensors; record each epoch's loss as a Python "
              "float, loss.item()", PART3, replay=False),
    Diagnosis("train_classifier", tc_lr_ignored,
              "the learning rate given is not the one used (a fixed lr, or Adam's default "
              "when none is passed); build the optimizer with "
              "torch.optim.Adam(model.parameters(), lr=lr)", "Question 2", replay=False),
    Diagnosis("train_classifier", tc_no_zero_grad,
              "the gradients are never zeroed, so each backward adds to the last ones and "
              "every step uses the sum of all epochs' gradients; call opt.zero_grad() "
              "before each backward", PART3, replay=False),
    Diagnosis("train_classifier", tc_sgd,
              "the optimizer is plain SGD; the loop uses torch.optim.Adam(model.parameters(), "
              "lr=lr)", "Question 2", replay=False),
    Diagnosis("train_classifier", tc_fresh_optimizer,
              "a new optimizer is built every epoch, which throws away Adam's running "
              "averages of the gradients; build it once, before the loop", PART3,
              replay=False),
    Diagnosis("train_classifier", tc_loss_after_step,
              "each epoch's loss is measured again after the step; record the loss of the "
              "forward pass the step was computed from (the first one is the untrained "
              "model's)", PART3, replay=False),
]


# Real students' models often make several of these mistakes at once: they copy the
# original Transformer's layer (post-norm, ReLU, dropout), whole or in part, and add a
# mistake of their own. Each such model is declared too (a replay of one mistake alone
# gives other logits), its feedback naming every mistake it makes.
TEXTBOOK_LAYER = ("bert_post_norm", "bert_relu", "bert_dropout")
"""The ways the original Transformer's layer differs from this one."""
SHAPING = ("bert_ff_2h", "bert_four_heads", "bert_two_layers", "bert_plain_list",
           "bert_shared_layer", "bert_head_first")
"""Mistakes in what the model holds or draws, never combined: a test that loads the
reference's weights fails on them before any forward (the same for every combination),
one that reads the weights alone cannot see the layer's recipe, so the mistake alone is
named (the simplest match); with them, a combination could only cost replays."""
_SINGLES = {d.mistake.__name__: d for d in DIAGNOSES if d.question == _MODEL and d.replay}
_UNSEEN = {"bert_post_norm": {"bert_no_residuals", "bert_no_attn_residual"}}
"""Switches a post-norm layer ignores (it always adds both sub-layers): such a pair
gives the logits of its one mistake, a replay for nothing."""


def _combinations():
    others = [n for n in _SINGLES if n not in TEXTBOOK_LAYER and n not in SHAPING]
    for size in range(1, len(TEXTBOOK_LAYER) + 1):
        for layer in itertools.combinations(TEXTBOOK_LAYER, size):
            for other in ([], *([o] for o in others)):
                names = (*layer, *other)
                switches = [_SINGLES[n].mistake.switches for n in names]
                if len(names) < 2 or any(o in _UNSEEN.get(n, ()) for n in names for o in names) \
                        or len({k for sw in switches for k in sw}) < sum(map(len, switches)):
                    continue
                name, flipped = "+".join(names), {k: v for sw in switches for k, v in sw.items()}
                found = combined(_mistake(name, **flipped), *(_SINGLES[n] for n in names))
                if "bert_dropout" in names:  # each place a dropout may be, a witness
                    found = replace(found, witnesses=_dropout_witnesses(name, flipped))
                yield found


DIAGNOSES += list(_combinations())
