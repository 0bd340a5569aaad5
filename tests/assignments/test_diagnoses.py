"""Do the diagnoses name the right misconception, and only it?

autograder/<id>/diagnoses.py declares known mistakes (engine/diagnoses/).
Graded over the corpus (tests/assignments/corpus/<id>): each buggy variant whose
header declares the mistakes it makes (`# diagnosis:`, read by autograder/corpus.py)
gets those diagnoses, and only them, on at least one failing test; no other variant
(correct ones, mistakes not diagnosed, those whose header says `# ambiguous:`) ever
gets one; a diagnosis never changes a score or a test's output (the snapshots hold
those); the mistakes' code never reaches a worker.

Variants taken from public code are labelled (`# makes:`) with the declared mistakes
they really make, read from their code before any was graded; they are measured,
not required to be named. Those marked `# split: measure` are never used to write
or tune a diagnosis: coverage and precision are printed for both parts (`-k share -s`).
"""
from __future__ import annotations

import importlib
import inspect

import numpy as np
import pytest
import torch

from autograder import checks, protocol, registry
from autograder.engine import assignment as assignment_mod
from autograder.engine.diagnoses import compare, evidence, verdicts
from autograder.engine.diagnoses.compare import HANDLE
from autograder.engine.diagnoses.declared import Diagnosis, combined
from autograder.engine.diagnoses.drive import inputs_digest
from autograder.engine.diagnoses.raised import Raised
from autograder.engine.diagnoses.record import MAX_CALLS, MAX_ELEMENTS, Calls, Step, record_for
from autograder.engine.diagnoses.recorder import Recorder, answered_by
from autograder.engine.diagnoses import replay
from autograder.engine.diagnoses.replay import Unreplayable
from autograder.build.stand_ins import KINDS as STAND_IN_KINDS
from autograder.engine.driving.student import RemoteObject
from autograder.engine import results
from autograder.engine.driving import budget
from autograder.report import feedback
from tests.assignments import corpus_tools

ASSIGNMENTS = [a for a in registry.ids() if corpus_tools.variants(a)]
"""Every assignment with a corpus: each of its variants is checked."""


def _diagnoses(assignment_id: str) -> dict[str, Diagnosis]:
    """{mistake function's name: its Diagnosis}."""
    loaded = assignment_mod.load(assignment_id)
    return {d.mistake.__name__: d for ds in loaded.diagnoses.values() for d in ds}


def _named(result) -> set[str]:
    """The mistakes a result's feedback names, each as its Diagnosis.text() (a combined
    diagnosis names each of its mistakes on a line)."""
    return {line for t in result.tests for line in t.diagnosis.splitlines()}


def _buggy(assignment_id: str) -> dict:
    """{buggy variant's path: its header (corpus_tools.Declared)}."""
    return {p: corpus_tools.declared(p) for p in corpus_tools.variants(assignment_id)
            if p.parent.name == "buggy"}


def _made(path) -> tuple[str, ...]:
    """The mistakes a buggy variant's header says feedback must name on the tests it
    fails (`# diagnosis:`); none for a correct variant."""
    return corpus_tools.declared(path).diagnoses if path.parent.name == "buggy" else ()


def _real(assignment_id: str, path) -> set[str]:
    """The texts of the declared mistakes a variant really makes (none for a correct one)."""
    if path.parent.name != "buggy":
        return set()
    texts = _diagnoses(assignment_id)
    return {texts[n].text() for n in corpus_tools.declared(path).made}


def _variants():
    for assignment_id in ASSIGNMENTS:
        for path in corpus_tools.variants(assignment_id):
            yield pytest.param(assignment_id, path, id=f"{assignment_id}/{path.parent.name}/{path.stem}")


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_headers_name_declared_mistakes(assignment_id):
    """Every name a header's `# diagnosis:`, `# ambiguous:` or `# makes:` line gives is
    a mistake declared in the assignment's diagnoses.py (a misspelt one fails here), of
    the variant's own question, given once; a variant has at most one of the three
    lines, and a correct variant none."""
    declared = {name: d for name, d in _diagnoses(assignment_id).items() if not d.parts}
    wrong = []
    for path in corpus_tools.variants(assignment_id):
        head = corpus_tools.declared(path)
        where = f"{path.parent.name}/{path.name}"
        lines = [bool(head.diagnoses), bool(head.ambiguous), head.makes is not None]
        if path.parent.name == "correct" and any(lines) or sum(lines) > 1:
            wrong.append(f"{where}: more labels than its kind allows")
        if len(set(head.made)) != len(head.made):
            wrong.append(f"{where}: a mistake named twice")
        for name in head.made:
            if name not in declared:
                wrong.append(f"{where}: {name} is no declared mistake of {assignment_id}")
            elif declared[name].question != head.question:
                wrong.append(f"{where}: {name} is a mistake of {declared[name].question}, "
                             f"not of {head.question}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_every_diagnosis_is_made_by_a_variant(assignment_id):
    """Each declared mistake is some corpus variant's own (`# diagnosis:` or
    `# ambiguous:`), so the corpus measures it."""
    declared = {name for name, d in _diagnoses(assignment_id).items() if not d.parts}
    made = {m for head in _buggy(assignment_id).values() for m in head.diagnoses + head.ambiguous}
    assert made == declared, (sorted(declared - made), sorted(made - declared))


CORPUS_GRADED = pytest.mark.heavy
"""The tests that read the corpus's grading (every variant of every assignment): the
fast tier, -m 'not heavy', skips them; the unit tests of the matching rule below stay."""


@CORPUS_GRADED
@pytest.mark.parametrize("assignment_id, path", list(_variants()))
def test_variant_gets_its_own_diagnosis_only(graded, assignment_id, path):
    """A diagnosed mistake is named, on a failing test, and nothing else ever is."""
    _, result = graded(assignment_id, path)
    named = _named(result)
    assert all(t.status == "failed" for t in result.tests if t.diagnosis)
    head = corpus_tools.declared(path)
    if head.makes is not None and path.parent.name == "buggy":
        # public code: whatever is named is a mistake it makes (it need not be named)
        assert named <= _real(assignment_id, path), head.split
        return
    assert named == {_diagnoses(assignment_id)[mistake].text() for mistake in _made(path)}


@CORPUS_GRADED
@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_share_of_buggy_variants_diagnosed(graded, assignment_id, capsys):
    """How often does feedback name the real mistake, and how often is what it names
    right? Per part (tuning, measuring): coverage, the share of buggy variants whose
    diagnoses name a mistake they make; precision, the share of the (variant,
    diagnosis) pairs given that name one (a correct variant makes none). Printed;
    the variants with a `# diagnosis:` line are all named, no correct variant is, and the measuring part
    gets no wrong diagnosis."""
    graded_results = graded.results(assignment_id)
    figures = {}
    for part in (corpus_tools.TUNE, corpus_tools.MEASURE):
        paths = [p for p in graded_results if corpus_tools.declared(p).split == part]
        given = {p: _named(graded_results[p]) for p in paths}
        real = {p: _real(assignment_id, p) for p in paths}
        buggy = [p for p in paths if p.parent.name == "buggy"]
        covered = [p for p in buggy if given[p] & real[p]]
        pairs = [(p, text) for p in paths for text in sorted(given[p])]
        right = [(p, text) for p, text in pairs if text in real[p]]
        figures[part] = (given, pairs, right)
        print(f"{assignment_id} [{part}]: coverage {len(covered)}/{len(buggy)} buggy variants, "
              f"precision {len(right)}/{len(pairs)} diagnoses"
              + "".join(f"\n  wrong: {p.parent.name}/{p.stem}: {text}"
                        for p, text in pairs if (p, text) not in right))
    shown = capsys.readouterr().out
    print(shown, end="")
    assert all(f"{assignment_id} [{part}]: coverage" in shown for part in figures)
    given = {p: g for part in figures.values() for p, g in part[0].items()}
    assert not [p for p, g in given.items() if p.parent.name == "correct" and g]
    made = [p for p in given if _made(p)]
    named = [p for p in made if given[p]]
    assert made and len(named) == len(made)
    _, pairs, right = figures[corpus_tools.MEASURE]
    assert len(right) == len(pairs)


@CORPUS_GRADED
@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_stand_ins_are_never_diagnosed(graded, assignment_id):
    """Does a stub nobody wrote ever hear "This looks like"? Every stub at once left
    untouched, raising, handing back its input, answering the reference's answer made
    zeros or ones (autograder.build.stand_ins), or raising ValueError everywhere: graded
    with the corpus, they fail tests of diagnosed questions and are never named."""
    stand_ins = graded.stand_ins(assignment_id)
    assert len(stand_ins) == len(STAND_IN_KINDS) + 1
    diagnosed = set(_diagnoses(assignment_id)[m].question for m in _diagnoses(assignment_id))
    for kind, result in stand_ins.items():  # the check can fail: they fail diagnosed tests
        assert any(t.status == "failed" and t.question in diagnosed for t in result.tests), kind
    named = [f"{kind}: {t.question}::{t.name}: {t.diagnosis}"
             for kind, result in stand_ins.items() for t in result.tests if t.diagnosis]
    assert not named, "\n".join(named)


@CORPUS_GRADED
@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_mistakes_never_reach_a_worker(graded, assignment_id):
    """The mistakes' code, like the reference, stays in the grader."""
    source = inspect.getsource(importlib.import_module(f"autograder.{assignment_id}.diagnoses"))
    lines = {line.strip() for line in source.splitlines()
             if len(line.strip()) >= 40 and not line.strip().startswith(("#", '"'))}
    assert lines  # the check can fail
    sent = graded.sent(assignment_id)
    found = {line for text in sent for line in lines if line in text}
    assert not found, sorted(found)[:5]


# The matching rule on its own, without a worker.

def _ref(n):
    if n < 1:
        raise ValueError(n)
    return torch.zeros(n)


def _twos(n):  # (a stub answering ones or zeros would be a stand-in: never named)
    return torch.full((n,), 2.0)


def _zeros_unchecked(n):
    return torch.zeros(max(n, 0))


def _record(*pairs):
    calls = Calls("f")
    for n, answer in pairs:
        calls.add((n,), {}, answer)
    return calls


TWOS = Diagnosis("f", _twos, "twos", "Part 1")
UNCHECKED = Diagnosis("f", _zeros_unchecked, "unchecked", "Part 1")


def test_match_needs_every_answer_and_a_difference_from_the_reference():
    assert evidence.diagnose((TWOS, UNCHECKED), _record((2, torch.full((2,), 2.0))), _ref) == \
        "This looks like: twos (see Part 1)"
    # one answer off, or another dtype: no match
    assert evidence.diagnose((TWOS,), _record((2, torch.full((2,), 2.0)), (3, torch.zeros(3))), _ref) == ""
    assert evidence.diagnose((TWOS,), _record((2, torch.full((2,), 2.0, dtype=torch.float64))), _ref) == ""
    # the unchecked mistake equals the reference on n = 2: not revealed, not named
    assert evidence.diagnose((UNCHECKED,), _record((2, torch.zeros(2))), _ref) == ""
    # an exception where the reference raises, an answer from the mistake: revealed
    assert evidence.diagnose((UNCHECKED,), _record((0, torch.zeros(0))), _ref) == \
        "This looks like: unchecked (see Part 1)"
    raised = _record((0, Raised(["ValueError", "Exception"])))
    assert evidence.diagnose((UNCHECKED,), raised, _ref) == ""


def _counts(n):
    if n < 1:
        raise ValueError(n)
    return torch.arange(1.0, n + 1)


def test_a_stand_ins_answers_are_no_evidence():
    """Is a mistake named for answers a stub nobody wrote gives (None, its argument,
    the reference's answer made zeros or ones)? Never, though the mistake gives them."""
    for answer in (None, 2, torch.zeros(2), torch.ones(2)):
        made = Diagnosis("f", lambda n, a=answer: a, "made", "Part 1")
        assert evidence.diagnose((made,), _record((2, answer)), _counts) == "", answer
    assert evidence.diagnose((TWOS,), _record((2, torch.full((2,), 2.0))), _counts) == TWOS.text()


def test_a_raised_exception_matches_by_type_and_message_class():
    """A library's message (torch's, Python's) is evidence: it must be the student's.
    A mistake's own `raise` is free text, which any message of its type matches, and so
    is no evidence where every call raised: a stub raising everywhere does that too."""
    def library(n):
        return torch.zeros(n).view(n + 1)  # RuntimeError, torch's message

    try:
        library(2)
    except RuntimeError as exc:
        message = str(exc)
    view = Diagnosis("f", library, "a view", "Part 1")
    raised = lambda m: _record((2, Raised(["RuntimeError", "Exception"], m)))
    assert evidence.diagnose((view,), raised(message), _counts) == view.text()
    assert evidence.diagnose((view,), raised("shape '[3]' is invalid"), _counts) == ""
    from autograder.hw2_positions_params import diagnoses as hw2, reference as ref2
    zero = next(d for d in hw2.DIAGNOSES if d.mistake is hw2.pe_rejects_zero)
    free = Calls(zero.question)
    free.add((0, 4), {}, Raised(["ValueError", "Exception"], "no answer"))
    assert evidence.diagnose((zero,), free, ref2.sinusoidal_pe) == ""
    free.answered_before = True  # the stub answered in an earlier test: no such stand-in
    assert evidence.diagnose((zero,), free, ref2.sinusoidal_pe) == zero.text()


def test_a_load_that_fails_for_another_reason_is_not_a_bias():
    """A module whose load_state_dict raised is named "self.qkv has a bias" only when
    torch's message names the keys that mistake leaves missing (the class's name aside)."""
    from autograder.engine.intake import untrusted
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    bias = next(d for d in hw1.DIAGNOSES if d.mistake is hw1.tsa_qkv_bias)
    with checks.seeded(0):
        state = ref1.TinySelfAttn(32, 4).state_dict()
    messages = {}
    for name, module in (("bias", hw1.tsa_qkv_bias(32, 4)),
                         ("empty", torch.nn.Module()), ("other", torch.nn.Linear(32, 96))):
        try:
            module.load_state_dict(state)
        except RuntimeError as exc:
            messages[name] = untrusted.text(str(exc).replace(type(module).__name__,
                                                             "TinySelfAttn"), 500)
    for name, named in (("bias", True), ("empty", False), ("other", False)):
        record = Calls("TinySelfAttn")
        record.seed = 0
        handle = lambda at: answered_by(RemoteObject(None, protocol.Handle(at + 1, "X")), record, at)
        record.add((32, 4), {}, handle(0))
        record.add_step(0, "getattr", ("load_state_dict",), {}, handle(1))
        record.add_step(1, "call", (state,), {}, Raised(["RuntimeError"], messages[name]))
        got = evidence.diagnose((bias,), record, ref1.TinySelfAttn)
        assert got == (bias.text() if named else ""), name


def _module_record() -> Calls:
    """A record of TinySelfAttn whose first entry is TinySelfAttn(12, 3)'s handle, as
    the Recorder leaves it (its Steps are entry 0's)."""
    record = Calls("TinySelfAttn")
    record.seed = 0
    record.add((12, 3), {}, answered_by(RemoteObject(None, protocol.Handle(1, "X")), record, 0))
    return record


def test_an_assert_is_named_only_where_the_reference_refuses_with_value_error():
    """refused_with_assert's sign names an AssertionError on an argument the reference
    refuses with ValueError, in a function stub and in a class stub (a driven record),
    beside an answer; never an AssertionError on a valid argument, a ValueError, a test
    whose every call raised, or a call whose arguments hold a handle."""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    named = {d.mistake.__name__: d for d in hw1.DIAGNOSES}
    mask, tsa = named["mask_asserted"], named["tsa_asserted"]
    asserted = Raised(["AssertionError", "Exception"], "n must be an int >= 1")

    def masks(*calls, before=False):
        record = Calls("causal_mask")
        record.answered_before = before
        for n, answer in calls:
            record.add((n,), {}, answer)
        return evidence.diagnose((mask,), record, ref1.causal_mask)

    valid = (5, ref1.causal_mask(5))
    assert masks(valid, (0, asserted)) == mask.text()
    assert masks(valid, ("4", asserted)) == mask.text()
    assert masks(valid, (7, asserted)) == ""  # a valid n refused: another mistake
    assert masks(valid, (0, Raised(["ValueError", "Exception"], "n < 1"))) == ""
    # only refusals: no answer of its own tells it from a stand-in raising everywhere
    assert masks((0, asserted)) == "" and masks((0, asserted), before=True) == ""
    handle = RemoteObject(None, protocol.Handle(9, "X"))
    assert masks(valid, (handle, asserted)) == ""

    record = _module_record()
    record.add((10, 3), {}, Raised(["AssertionError", "Exception"], "h % heads"))
    assert evidence.diagnose((tsa,), record, ref1.TinySelfAttn) == tsa.text()


def test_a_large_negative_mask_is_named_whatever_the_constant():
    """Is a causal mask with a finite large negative number where -inf belongs named
    as that misconception for any such number, and never for -inf, a mild negative
    number or another dtype?"""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    found = [d for d in hw1.DIAGNOSES if d.mistake is hw1.mask_large_negative]
    masks = lambda fill, dtype=torch.float32: _record(*(
        (n, torch.triu(torch.full((n, n), fill, dtype=dtype), diagonal=1)) for n in (1, 2, 3)))
    for fill in (-1e4, -1e9, -1e10, torch.finfo(torch.float32).min):
        assert evidence.diagnose(found, masks(fill), ref1.causal_mask) == found[0].text(), fill
    for other in (masks(float("-inf")), masks(-10.0), masks(-1e9, torch.float64),
                  _record((1, torch.zeros(1, 1)))):
        assert evidence.diagnose(found, other, ref1.causal_mask) == ""


def _attention_record(attend, masked: bool, sizes=((4, 4, 8), (3, 7, 5))):
    from autograder.hw1_attention import reference as ref1
    calls = Calls("scaled_dot_product_attention")
    g = torch.Generator().manual_seed(0)
    for n_q, n_k, d_k in sizes:
        q, k, v = (torch.randn(n, d_k, generator=g) for n in (n_q, n_k, n_k))
        mask = ref1.causal_mask(n_k)[:n_q] if masked else None
        args = (q, k, v) if mask is None else (q, k, v, mask)
        calls.add(args, {}, attend(*args))
    return calls


def _scaled_by(scale):
    def attend(q, k, v, mask=None):
        s = q @ k.transpose(-2, -1) / scale(q)
        w = torch.softmax(s if mask is None else s + mask, dim=-1)
        return w @ v, w
    return attend


def _masked_after_softmax(fill):
    def attend(q, k, v, mask=None):
        w = torch.softmax(q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5, dim=-1)
        return w @ v, (w if mask is None else w.masked_fill(torch.isinf(mask), fill))
    return attend


def test_attention_scaled_by_any_other_number_is_named_as_such():
    """Are scores divided by another number than sqrt(d_k) named whatever the number
    (a hard-coded 4, sqrt(d_k) multiplied, sqrt of the number of queries, d_k), masked
    or not; 1 by its own diagnosis, sqrt(d_k) by none?"""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    found = [d for d in hw1.DIAGNOSES if d.question == "scaled_dot_product_attention"]
    text = {d.mistake.__name__: d.text() for d in found}
    diagnosed = lambda scale, masked: evidence.diagnose(
        found, _attention_record(_scaled_by(scale), masked), ref1.scaled_dot_product_attention)
    for scale in (lambda q: 4.0, lambda q: q.shape[-1] ** -0.5, lambda q: q.shape[-2] ** 0.5):
        for masked in (False, True):
            assert diagnosed(scale, masked) == text["sdpa_scaled_otherwise"]
    assert diagnosed(lambda q: q.shape[-1], True) == text["sdpa_scaled_otherwise"]
    assert diagnosed(lambda q: 1.0, False) == text["sdpa_unscaled"]
    assert diagnosed(lambda q: q.shape[-1] ** 0.5, True) == ""


def test_a_number_equal_to_the_only_d_k_seen_is_not_named_d_k():
    """A hard-coded 8 (graykode's sqrt(64)) where every call has d_k = 8 gives the
    answers of dividing by d_k: "divided by d_k" would be a guess, so both are named
    for what the answers show, another number than sqrt(d_k)."""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    found = [d for d in hw1.DIAGNOSES if d.question == "scaled_dot_product_attention"]
    text = {d.mistake.__name__: d.text() for d in found}
    for scale in (lambda q: 8.0, lambda q: q.shape[-1]):
        record = _attention_record(_scaled_by(scale), False, ((4, 4, 8), (6, 6, 8)))
        assert evidence.diagnose(found, record, ref1.scaled_dot_product_attention) == \
            text["sdpa_scaled_otherwise"]
    assert "d_k instead" not in " ".join(text.values())


def test_a_mask_after_the_softmax_is_named_whatever_fills_the_hidden_keys():
    """Named whatever fills the hidden keys' weights; not for an answer without a mask,
    nor for one that never reads the mask (its hidden keys keep the softmax's weight)."""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    found = [d for d in hw1.DIAGNOSES if d.question == "scaled_dot_product_attention"]
    named = [d.text() for d in found if d.mistake is hw1.sdpa_mask_after_softmax]
    for fill in (0.0, -1e9, float("-inf")):
        record = _attention_record(_masked_after_softmax(fill), masked=True)
        assert [evidence.diagnose(found, record, ref1.scaled_dot_product_attention)] == named
    # without a mask the answer is right: nothing to name
    unmasked = _attention_record(_masked_after_softmax(0.0), masked=False)
    assert evidence.diagnose(found, unmasked, ref1.scaled_dot_product_attention) == ""
    # a mask never read leaves every weight the softmax's: no mask acted after it
    unread = _attention_record(lambda q, k, v, mask=None: _scaled_by(
        lambda q: q.shape[-1] ** 0.5)(q, k, v), masked=True)
    assert evidence.diagnose(found, unread, ref1.scaled_dot_product_attention) == ""


def test_a_training_loop_that_ignores_lr_is_named_at_any_rate_it_uses_instead():
    """hw4's train_classifier run at a fixed rate (Adam's default, a fine-tuning
    recipe's 2e-5) instead of the lr given is named as such; the loops of its other
    mistakes by their own diagnosis; the correct loop, and a run at the given rate,
    by none."""
    from autograder.hw4_bert_finetuning import common, diagnoses as hw4, reference as ref4
    found = [d for d in hw4.DIAGNOSES if d.question == "train_classifier"]
    text = {d.mistake.__name__: d.text() for d in found}
    seed, config, key = hw4.LOOP_DATA[0]
    ids, labels = common.data(*key)

    def diagnosed(loop, rate, lr=3e-3, epochs=5):
        calls = Calls("train_classifier")
        calls.add((object(), ids, labels), {"epochs": epochs, "lr": lr},
                  list(hw4._loop_trace(loop, seed, config, key, epochs, rate)))
        return evidence.diagnose(found, calls, ref4.train_classifier)
    assert diagnosed("adam", 1e-3) == diagnosed("adam", 2e-5) == text["tc_lr_ignored"]
    for loop in ("no_zero_grad", "sgd", "fresh_optimizer", "loss_after_step"):
        assert diagnosed(loop, 3e-3) == text[f"tc_{loop}"], loop
    assert diagnosed("adam", 3e-3) == diagnosed("adam", 1e-3, lr=1e-3) == ""


def _scheduled_losses(rate, epochs, step_size=5):
    """hw4's full-batch loop at Adam(rate) with StepLR(step_size, 0.1), on LOOP_DATA."""
    from autograder.hw4_bert_finetuning import common, diagnoses as hw4
    torch.manual_seed(0)
    seed, config, key = hw4.LOOP_DATA[0]
    model, (ids, labels) = common.reference_model(seed, config), common.data(*key)
    opt = torch.optim.Adam(model.parameters(), lr=rate)
    schedule, losses = torch.optim.lr_scheduler.StepLR(opt, step_size, gamma=0.1), []
    for _ in range(epochs):
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(ids), labels)
        loss.backward()
        opt.step()
        schedule.step()
        losses.append(loss.item())
    return losses


def test_a_fixed_rate_is_named_whatever_schedule_follows_it():
    """A loop that hard-codes its rate and decays it (StepLR) is named for the rate it
    ignores, read on the losses before the decay; the same loop at the rate given is
    not (its schedule is the documented run's subject, not a declared mistake); one that
    also stops after 5 epochs is named for its rate alone (a loop that stops early answers
    as many losses as asked for 5 epochs: not a fixed count, which ignores `epochs` too).
    Any loop whose two runs at two rates give the same moving losses is named too."""
    from autograder.hw4_bert_finetuning import common, diagnoses as hw4, reference as ref4
    found = [d for d in hw4.DIAGNOSES if d.question == "train_classifier"]
    text = {d.mistake.__name__: d.text() for d in found}
    ids, labels = common.data(*hw4.LOOP_DATA[0][2])

    def diagnosed(runs):  # runs: [(epochs, lr given, losses)]
        calls = Calls("train_classifier")
        for epochs, lr, losses in runs:
            calls.add((object(), ids, labels), {"epochs": epochs, "lr": lr}, losses)
        return evidence.diagnose(found, calls, ref4.train_classifier)
    fixed = [(5, 3e-3, _scheduled_losses(1e-3, 5)), (12, 1e-4, _scheduled_losses(1e-3, 12))]
    assert fixed[1][2][7] != pytest.approx(hw4._loop_trace("adam", *hw4.LOOP_DATA[0], 12, 1e-3)[7])
    assert diagnosed(fixed) == text["tc_lr_ignored"]
    given = [(5, 3e-3, _scheduled_losses(3e-3, 5)), (12, 1e-4, _scheduled_losses(1e-4, 12))]
    assert diagnosed(given) == ""
    short = [(5, 3e-3, _scheduled_losses(1e-3, 5)), (12, 1e-4, _scheduled_losses(1e-3, 5))]
    assert diagnosed(short) == text["tc_lr_ignored"]
    fixed_count = [(5, 3e-3, _scheduled_losses(1e-3, 10)), (12, 1e-4, _scheduled_losses(1e-3, 10))]
    assert diagnosed(fixed_count) == "\n".join((text["tc_epochs_ignored"], text["tc_lr_ignored"]))
    pairs = [(5, 3e-3, [[0.5], [0.4]]), (12, 1e-4, [[0.5], [0.4]])]  # not losses: not counted
    assert diagnosed(pairs) == ""
    summary = [(5, 3e-3, [0.5]), (12, 1e-4, [0.4])]  # one loss: a summary as much as an epoch
    assert diagnosed(summary) == ""
    # whatever the optimizer: two runs at two rates with the same moving losses (no rate
    # of OTHER_RATES gives these); losses that do not move, or differ, are no sign
    own = [0.9, 0.7, 0.55, 0.5, 0.45]
    assert diagnosed([(5, 3e-3, own), (12, 1e-4, own + [0.4] * 7)]) == text["tc_lr_ignored"]
    assert diagnosed([(5, 3e-3, [0.9] * 5), (12, 1e-4, [0.9] * 12)]) == ""
    assert diagnosed([(5, 3e-3, own), (12, 1e-4, [0.9, 0.8, 0.7] + [0.6] * 9)]) == ""


def test_two_matching_mistakes_name_none():
    twin = Diagnosis("f", lambda n: torch.full((n,), 2.0), "twin", "Part 2")
    assert evidence.diagnose((TWOS, twin), _record((2, torch.full((2,), 2.0))), _ref) == ""


def _all_twos(calls):
    return all(bool((answer == 2).all()) for _, _, answer in calls)


def _all_even(calls):
    return all(bool((answer % 2 == 0).all()) for _, _, answer in calls)


def test_two_matching_signs_name_both_and_a_sign_beside_a_replay_names_none():
    """Signs are each their own evidence (a property no correct answer has): two that
    match are both named, a line each, in their declared order; a sign and a replay of
    another mistake that both match are two explanations of one answer; a stand-in's
    answers, no evidence."""
    twos_sign = Diagnosis("f", _all_twos, "all twos", "Part 2", replay=False)
    even = Diagnosis("f", _all_even, "even", "Part 2", replay=False)
    twos = _record((2, torch.full((2,), 2.0)))
    assert evidence.diagnose((twos_sign, even), twos, _ref) == f"{twos_sign.text()}\n{even.text()}"
    assert evidence.diagnose((twos_sign, TWOS), twos, _ref) == ""
    zeros = _record((2, torch.zeros(2)))  # the zeros stand-in's answer: even, but no evidence
    assert evidence.diagnose((even, Diagnosis("f", lambda calls: True, "any", "Part 2",
                                               replay=False)), zeros, _ref) == ""


def _twos_plus_one(n):
    return torch.full((n,), 3.0)


def test_a_combined_diagnosis_names_each_mistake_and_the_simplest_match_wins():
    """A combined diagnosis (two mistakes at once) is named, a line for each, where its
    mistake alone gives the answers; where a single mistake and a combination holding
    it both do (the test cannot see the other), the single one is named; two
    unrelated matches still name nothing."""
    plus_one = Diagnosis("f", _twos_plus_one, "plus one", "Part 2")
    both = combined(_twos_plus_one, TWOS, plus_one)
    assert both.text() == f"{TWOS.text()}\n{plus_one.text()}"
    threes = _record((2, torch.full((2,), 3.0)))
    assert evidence.diagnose((TWOS, both), threes, _ref) == both.text()
    also_twos = combined(_twos, TWOS, plus_one)  # the other mistake unseen
    twos = _record((2, torch.full((2,), 2.0)))
    assert evidence.diagnose((TWOS, also_twos), twos, _ref) == TWOS.text()
    twin = Diagnosis("f", _twos, "twin", "Part 2")
    assert evidence.diagnose((TWOS, twin, combined(_twos, TWOS, twin)), twos, _ref) == ""
    with pytest.raises(TypeError):
        combined(_twos, TWOS)  # one mistake is no combination
    with pytest.raises(TypeError):
        combined(_twos, TWOS, Diagnosis("g", _twos, "g", "Part 2"))


def test_a_number_in_a_0d_tensor_is_read_as_the_number():
    """The student's 0-d tensor or array where a number is asked is compared as that
    number (the hidden tests read it so); a mistake's tensor is not unwrapped, so a
    mistake that answers a tensor (hw2's count_tensor) still differs from the number."""
    assert compare.same(torch.tensor(2.5, dtype=torch.float64), 2.5, 1e-4, 1e-5)
    assert compare.same(np.array(3), 3, 0, 0)
    assert not compare.same(torch.tensor(2.5), 2.6, 1e-4, 1e-5)
    assert not compare.same(torch.tensor(3.0), 3, 0, 0)  # a float is no count
    assert not compare.same(3, torch.tensor(3), 0, 0)
    assert not compare.same(torch.tensor(True), True, 0, 0)


def test_a_witness_names_its_mistake():
    """A mistake whose own replay does not give the answers is named when one of its
    witnesses (another way of writing it) does; without the witness, nothing is."""
    threes = _record((2, torch.full((2,), 3.0)))
    witnessed = Diagnosis("f", _twos, "twos, or threes", "Part 1", witnesses=(_twos_plus_one,))
    assert evidence.diagnose((witnessed,), threes, _ref) == witnessed.text()
    assert evidence.diagnose((Diagnosis("f", _twos, "twos", "Part 1"),), threes, _ref) == ""


def test_a_random_forward_is_named_and_a_replay_it_agrees_with_says_more():
    """answers_vary's sign names a class stub whose object answered one request twice in
    a row, on equal arguments, with finite numbers that differ; never equal answers,
    other arguments, a request in between or nan. A replay that gives the answers and
    holds the sign's mistake among its own is named whole; a sign naming another
    mistake beside a replay, nothing."""
    from autograder.hw1_attention import reference as ref1
    from autograder.testing import answers_vary
    vary = answers_vary("TinySelfAttn", "random", "Part 3", "tsa_random")
    x = torch.randn(1, 2, 12, generator=torch.Generator().manual_seed(0))

    def forwards(*steps):
        record = _module_record()
        for args, answer in steps:
            record.add_step(0, "call", args, {}, answer)
        return evidence.diagnose((vary,), record, ref1.TinySelfAttn)

    half, third = torch.full((1, 2, 12), 0.5), torch.full((1, 2, 12), 1 / 3)
    assert forwards(((x,), half), ((x,), third)) == vary.text()
    assert forwards(((x,), half), ((x,), half.clone())) == ""
    assert forwards(((x,), half), ((x + 1,), third)) == ""
    assert forwards(((x,), half), ((x + 1,), half), ((x,), third)) == ""
    assert forwards(((x,), half), ((x,), torch.full((1, 2, 12), float("nan")))) == ""

    twos = _record((2, torch.full((2,), 2.0)))
    plus_one = Diagnosis("f", _twos_plus_one, "plus one", "Part 2")
    agreeing = Diagnosis("f", lambda calls: True, "twos", "Part 1", replay=False)
    other = Diagnosis("f", lambda calls: True, "other", "Part 1", replay=False)
    assert agreeing.text() == TWOS.text()
    assert evidence.diagnose((agreeing, TWOS), twos, _ref) == TWOS.text()
    threes = _record((2, torch.full((2,), 3.0)))
    both = combined(_twos_plus_one, TWOS, plus_one)
    assert evidence.diagnose((agreeing, both), threes, _ref) == both.text()
    assert evidence.diagnose((other, TWOS), twos, _ref) == ""


def test_a_library_refusal_is_a_sign_no_stand_in_gives():
    """The exam's sign of integer scores kept as they are, in torch: the stub raised
    torch's "not implemented for 'Char'" on int8 scores. Named although it is the one
    call of its test: a stand-in made from the reference raises with a message of its
    own, never a library's; not named for another dtype's refusal, nor for a message of
    the stand-ins' own."""
    from autograder.exam_midterm import diagnoses as exam
    from autograder.exam_midterm import reference as exam_ref
    sign = next(d for d in exam.DIAGNOSES if d.question == "perplexity" and not d.replay)
    logits, labels = np.zeros((8, 7), dtype=np.int8), np.zeros(8, dtype=np.int64)

    def refused(message):
        record = Calls("perplexity")
        record.answered_before = True
        record.add((logits, labels), {}, Raised(["NotImplementedError", "RuntimeError",
                                                 "Exception"], message))
        return evidence.diagnose((sign,), record, exam_ref.perplexity)

    assert refused("\"softmax_lastdim_kernel_impl\" not implemented for 'Char'") == sign.text()
    assert refused("\"exp_vml_cpu\" not implemented for 'Long'") == ""
    assert refused("") == ""


def test_an_unchecked_argument_is_named_whatever_the_stub_answers_there():
    """accepted_unchecked's sign names a stub that answers an argument the reference
    refuses with ValueError (any answer), or fails there with another exception while
    it raises ValueError nowhere; never a ValueError, an AssertionError (the assert's
    own diagnosis), a stub with no answer of its own, another kind of bad argument, or
    a stub that checks with ValueError and lets one more through with a TypeError."""
    from autograder.hw1_attention import diagnoses as hw1, reference as ref1
    from autograder.hw2_positions_params import diagnoses as hw2, reference as ref2
    named = {d.mistake.__name__: d for d in (*hw1.DIAGNOSES, *hw2.DIAGNOSES)}
    mask, tsa = named["mask_unchecked"], named["tsa_unchecked"]
    value_error = Raised(["ValueError", "Exception"], "n < 1")
    type_error = Raised(["TypeError", "Exception"], "full(): argument 'size'")

    def masks(*calls):
        return evidence.diagnose((mask,), _record(*calls), ref1.causal_mask)

    valid = (5, ref1.causal_mask(5).bool())  # whatever its valid answers are
    for answer in (torch.zeros(0, 0, dtype=torch.bool), torch.zeros(0, 0), None, type_error):
        assert masks(valid, (0, answer)) == mask.text(), answer
    assert masks(valid, (0, value_error)) == ""
    assert masks(valid, (0, Raised(["AssertionError", "Exception"], "n"))) == ""
    assert masks((0, torch.zeros(0, 0))) == masks((0, torch.zeros(0, 0)), (7, type_error)) == ""
    assert masks(valid, (0, value_error), (2.5, type_error)) == ""  # checked, another type
    assert masks(valid, (0, value_error), (-3, torch.zeros(0, 0))) == mask.text()

    def modules(forward: bool):
        record = _module_record()
        if forward:
            x = torch.randn(1, 2, 12, generator=torch.Generator().manual_seed(0))
            record.add_step(0, "call", (x,), {}, torch.full((1, 2, 12), 0.5))
        at = len(record.calls)
        record.add((10, 3), {}, answered_by(RemoteObject(None, protocol.Handle(at + 1, "X")), record, at))
        return evidence.diagnose((tsa,), record, ref1.TinySelfAttn)
    assert modules(forward=True) == tsa.text()
    assert modules(forward=False) == ""  # handles alone: a module with no layers answers them

    d_unchecked, types_unchecked = named["pe_d_unchecked"], named["pe_types_unchecked"]
    table = ref2.sinusoidal_pe(4, 8)
    for n_pos, d, found in ((4, 7, d_unchecked), (3.5, 8, types_unchecked)):
        record = Calls("sinusoidal_pe")
        record.add((4, 8), {}, table)
        record.add((n_pos, d), {}, table)
        assert evidence.diagnose((d_unchecked, types_unchecked), record,
                                 ref2.sinusoidal_pe) == found.text(), (n_pos, d)


def _overflows(n):
    return torch.full((n,), float(np.exp(np.float64(1000.0))))


def _overflow_sign(calls):
    return bool(np.exp(np.float64(1000.0)) > 0 and calls)


def test_a_replay_or_sign_warns_nothing_on_the_console():
    """A mistake's or a sign's NumPy overflow is its answer: no RuntimeWarning reaches
    the grader's console, and the grading thread's own error state is left as it was."""
    import warnings
    inf = _record((2, torch.full((2,), float("inf"))))
    replayed = Diagnosis("f", _overflows, "overflows", "Part 1")
    sign = Diagnosis("f", _overflow_sign, "a sign", "Part 1", replay=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert evidence.diagnose((replayed,), inf, _ref) == replayed.text()
        assert evidence.diagnose((sign,), inf, _ref) == sign.text()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)], caught
    assert np.geterr()["over"] == "warn"


def test_unreplayable_or_spoiled_records_name_none():
    calls = _record((2, torch.full((2,), 2.0)))
    calls.spoiled = True
    assert evidence.diagnose((TWOS,), calls, _ref) == ""
    handle = Calls("f")
    handle.add((object(),), {}, torch.full((2,), 2.0))
    assert evidence.diagnose((TWOS,), handle, _ref) == ""


def test_diagnosis_is_shown_beside_the_output_never_in_it():
    """feedback.md, feedback.html and results.json's test output show it; the test's
    output (what the snapshots compare) and the scores do not change."""
    t = results.TestResult("f", "test_x", "x", 0.0, 1.0, "weights differ", "visible",
                   diagnosis=TWOS.text())
    result = results.SubmissionResult("s", "a", tests=[t])
    ctx = feedback.Context("A", ["f"], {"f": 1.0})
    assert "looks like: twos (see Part 1)" in feedback.markdown(result, ctx)
    assert "looks like: twos (see Part 1)" in feedback.html(result, ctx)
    test = results.to_gradescope(result)["tests"][0]
    assert test["output"] == "weights differ\n\nThis looks like: twos (see Part 1)"
    assert (test["score"], test["status"], t.output) == (0.0, "failed", "weights differ")
    plain = results.to_gradescope(results.SubmissionResult("s", "a", tests=[results.TestResult(
        "f", "test_x", "x", 0.0, 1.0, "weights differ", "visible")]))
    assert plain["tests"][0]["output"] == "weights differ"


def _shows_twos(calls):
    return any(isinstance(a, torch.Tensor) and bool((a == 2).all()) for _, _, a in calls)


def test_a_sign_is_read_from_the_answers_without_replay():
    """A diagnosis that is a sign (replay=False) needs no replay, so a handle among the
    arguments does not stop it; a sign that breaks names nothing."""
    sign = Diagnosis("f", _shows_twos, "twos", "Part 1", replay=False)
    handle = Calls("f")
    handle.add((object(),), {}, torch.full((2,), 2.0))
    assert evidence.diagnose((sign,), handle, _ref) == "This looks like: twos (see Part 1)"
    zeros = Calls("f")
    zeros.add((object(),), {}, torch.zeros(2))
    assert evidence.diagnose((sign,), zeros, _ref) == ""
    broken = Diagnosis("f", lambda calls: 1 / 0, "never", "Part 1", replay=False)
    assert evidence.diagnose((sign, broken), handle, _ref) == sign.text()
    # signs alone allow larger records (nothing is replayed); with a replayed mistake, not
    assert record_for("f", (sign,)).max_elements > MAX_ELEMENTS
    assert record_for("f", (sign, TWOS)).max_elements == MAX_ELEMENTS


# Twins: a handle among the arguments, replayed through the grader's copy of its object.

class _Counter:
    """A stand-in for a model in the worker: the size it holds, and whether it was touched."""

    def __init__(self, size):
        self.size, self.touched = size, False


def _count(model, extra=()):
    return model.size


def _count_twice(model, extra=()):
    return 2 * model.size


def _count_and_touch(model, extra=()):
    model.touched = True
    return 2 * model.size


TWICE = Diagnosis("f", _count_twice, "twice", "Part 2")


def _handle_record(answer, make=None, extra=()):
    handle = object()  # what the worker sent: nothing here can replay it
    calls = Calls("f")
    calls.add((handle, list(extra)), {}, answer)
    if make is not None:
        calls.twin(handle, make)
    return calls


def test_a_handle_with_a_twin_is_replayed_on_it():
    made = []
    local = _Counter(3)
    make = lambda: made.append(1) or local
    assert evidence.diagnose((TWICE,), _handle_record(6, make), _count) == TWICE.text()
    assert evidence.diagnose((TWICE,), _handle_record(3, make), _count) == ""  # the reference's
    assert made  # made only now, for the replays: a passing test never calls make()


def test_a_handle_without_a_twin_names_nothing():
    record = _handle_record(6, lambda: _Counter(3))
    record.calls.append(((object(), []), {}, 6))  # a second handle, declared with no twin
    assert evidence.diagnose((TWICE,), record, _count) == ""
    broken = _handle_record(6, lambda: 1 / 0)  # a twin the test cannot make: no diagnosis
    assert evidence.diagnose((TWICE,), broken, _count) == ""


def test_a_twin_is_the_object_itself_and_other_arguments_are_copied():
    """The twin is passed as it is (a BERT-sized model is not copied for each mistake),
    the plain arguments as copies, which a mistake may modify without changing the record."""
    local, seen = _Counter(3), []

    def appends(model, extra=()):
        seen.append(model)
        extra.append(0)
        return 2 * model.size

    record = _handle_record(6, lambda: local, extra=[1])
    d = Diagnosis("f", appends, "appends", "Part 2")
    assert evidence.diagnose((d,), record, _count) == d.text()
    assert seen == [local] and record.calls[0][0][1] == [1]
    assert not local.touched  # the replays of a mistake that only reads leave it as made


def test_a_twin_with_state_must_end_as_the_test_read_it():
    """A twin whose state the test read back is made afresh for each replay; a mistake
    matches only when it leaves the twin's state as the test saw the handle's."""
    made = []

    def make():
        made.append(_Counter(3))
        return made[-1]

    touch = Diagnosis("f", _count_and_touch, "touches", "Part 2")
    for seen, named in ((False, TWICE), (True, touch)):
        handle = object()
        calls = Calls("f")
        calls.add((handle, []), {}, 6)
        calls.twin(handle, make, read=lambda c: c.touched, seen=seen)
        made.clear()
        assert evidence.diagnose((TWICE, touch), calls, _count) == named.text()
        assert len(made) == 3  # one for each mistake, one for the reference
    # answers alike, only the state tells: the one that changes it is revealed
    handle = object()
    calls = Calls("f")
    calls.add((handle, []), {}, 3)
    calls.twin(handle, make, read=lambda c: c.touched, seen=True)
    touch_once = Diagnosis("f", lambda m, e=(): setattr(m, "touched", True) or m.size,
                                    "touches once", "Part 2")
    assert evidence.diagnose((touch_once,), calls, _count) == touch_once.text()
    with pytest.raises(TypeError):
        calls.twin(handle, make, read=lambda c: c.touched)  # a state needs what was seen


def test_student_twin_declares_a_handle_of_a_recorded_test_only():
    from autograder import protocol
    from autograder.engine.driving.student import RemoteObject, Student

    student = Student(None, 1.0)
    handle = RemoteObject(student, protocol.Handle(7, "Linear"))
    assert student.twin(handle, lambda: 1 / 0) is handle  # not recorded: nothing kept
    record = Calls("f")
    student.observe(Recorder(record))
    assert student.twin(handle, lambda: 1 / 0) is handle  # declared, not made
    assert list(record.twins) == [id(handle)]
    with pytest.raises(TypeError):
        student.twin(_Counter(1), _Counter)  # only a handle has a twin


def test_shared_answers_bring_their_twins_to_the_tests_that_read_them():
    import types

    from autograder import protocol
    from autograder.engine.driving.student import RemoteObject, Student

    conn = types.SimpleNamespace(memo={})
    first, later = Student(conn, 1.0), Student(conn, 1.0)
    handle = RemoteObject(first, protocol.Handle(3, "Model"))
    first.observe(Recorder(Calls("f")))
    later_record = Calls("f")
    later.observe(Recorder(later_record))

    def compute():  # a test's calls, as the Student records them
        first._observer.record.add((handle, []), {}, 6)
        first.twin(handle, lambda: _Counter(3))
        return 6

    assert first.shared("k", compute) == later.shared("k", compute) == 6
    assert evidence.diagnose((TWICE,), later_record, _count) == TWICE.text()


def test_shared_answers_are_recorded_once_however_often_a_test_reads_them():
    """A test that reads shared answers one at a time (hw1's masks, n by n) has their
    calls in its record once, whether it computed them or a test before it did."""
    import types

    from autograder.engine.driving.student import Student

    conn = types.SimpleNamespace(memo={})
    first, later = Student(conn, 1.0), Student(conn, 1.0)
    first_record, later_record = Calls("f"), Calls("f")
    first.observe(Recorder(first_record))
    later.observe(Recorder(later_record))

    def compute():
        for n in range(3):
            first._observer.record.add((n,), {}, n * 2)
        return [0, 2, 4]

    for student in (first, later):
        for _ in range(5):
            assert student.shared("k", compute) == [0, 2, 4]
    for record in (first_record, later_record):
        assert [c[0] for c in record.calls] == [(0,), (1,), (2,)]
        assert record.count == 3 and not record.spoiled


# Class stubs: the handle a call answers, driven by the test, is recorded too.

class _CountingStub:
    """A class stub's reference: counts from 0; its weights are drawn at construction."""

    def __init__(self, n):
        if n < 1:
            raise ValueError(n)
        self.n, self.w = n, torch.randn(n)

    def values(self):
        return torch.arange(self.n)

    def noise(self):
        return self.w.clone()

    def myself(self):
        return self

    def counts(self):
        return iter(self.values().tolist())


class _CountsFromOne(_CountingStub):
    def values(self):
        return torch.arange(1, self.n + 1)


class _PlainSelf(_CountsFromOne):
    def myself(self):
        return torch.arange(1, self.n + 1)


FROM_ONE = Diagnosis("Counter", _CountsFromOne, "from one", "Part 3")
PLAIN_SELF = Diagnosis("Counter", _PlainSelf, "plain self", "Part 3")


class _Driving:
    """A record of the stub Counter as Student fills it: the constructor's answer is a
    handle, whose method reads and calls are Steps."""

    def __init__(self, seed=0):
        self.record = Calls("Counter")
        self.record.seed = seed

    def _handle(self):
        at = len(self.record.calls)
        return answered_by(RemoteObject(None, protocol.Handle(at + 1, "Counter")), self.record, at)

    def new(self, n):
        self.record.add((n,), {}, self._handle())
        return len(self.record.calls) - 1

    def call(self, on, method, answer):
        """obj.method() answering `answer` (a handle when answer is HANDLE)."""
        bound = self._handle()
        self.record.add_step(on, "getattr", (method,), {}, bound)
        self.record.add_step(len(self.record.calls) - 1, "call", (), {},
                             self._handle() if answer is HANDLE else answer)


def test_class_stub_matches_on_every_method_answer():
    driving = _Driving()
    counter = driving.new(3)
    driving.call(counter, "values", torch.arange(1, 4))
    assert driving.record.driven
    assert evidence.diagnose((FROM_ONE,), driving.record, _CountingStub) == FROM_ONE.text()
    # a later answer that is not the mistake's: no match
    driving.call(counter, "values", torch.arange(0, 3))
    assert evidence.diagnose((FROM_ONE,), driving.record, _CountingStub) == ""


def test_class_stub_compares_handles_and_plain_answers():
    """A handle answered where the mistake answers a handle is the same answer; a
    handle where it answers plain data, or plain data where it answers a handle, is not."""
    driving = _Driving()
    counter = driving.new(2)
    driving.call(counter, "values", torch.arange(1, 3))
    driving.call(counter, "myself", HANDLE)
    assert evidence.diagnose((FROM_ONE, PLAIN_SELF), driving.record, _CountingStub) == FROM_ONE.text()
    plain = _Driving()
    counter = plain.new(2)
    plain.call(counter, "values", torch.arange(1, 3))
    plain.call(counter, "myself", torch.arange(1, 3))
    assert evidence.diagnose((FROM_ONE, PLAIN_SELF), plain.record, _CountingStub) == PLAIN_SELF.text()
    # an exception where the mistake answers: no match
    raised = _Driving()
    raised.record.add((2,), {}, Raised(["ValueError", "Exception"]))
    assert evidence.diagnose((FROM_ONE,), raised.record, _CountingStub) == ""


def test_class_stub_replays_the_workers_seeds():
    """Weights drawn at construction are answers too: replayed under the seed the worker
    had (the test's, or one student.seed() gave), and only then the same."""
    with checks.seeded(7):
        drawn = _CountsFromOne(2).w
    for seed, reseeded, named in ((7, None, True), (8, None, False), (8, 7, True)):
        driving = _Driving(seed)
        if reseeded is not None:
            driving.record.reseeded(reseeded)
        counter = driving.new(2)
        driving.call(counter, "values", torch.arange(1, 3))
        driving.call(counter, "noise", drawn.clone())
        assert (evidence.diagnose((FROM_ONE,), driving.record, _CountingStub) != "") is named, seed


def test_what_a_handle_answers_is_bounded_as_a_calls_answers():
    """Steps count towards MAX_CALLS and MAX_ELEMENTS: a handle that answers without
    end, or large answers, leaves nothing to replay."""
    many = _Driving()
    counter = many.new(2)
    for _ in range(MAX_CALLS // 2):
        many.call(counter, "values", torch.arange(1, 3))
    assert many.record.spoiled and len(many.record.calls) == MAX_CALLS
    assert evidence.diagnose((FROM_ONE,), many.record, _CountingStub) == ""
    large = _Driving()
    counter = large.new(MAX_ELEMENTS + 1)
    large.call(counter, "values", torch.arange(1, MAX_ELEMENTS + 2))
    assert large.record.spoiled
    assert evidence.diagnose((FROM_ONE,), large.record, _CountingStub) == ""


def test_class_stub_that_the_reference_drives_alike_is_not_named():
    driving = _Driving()
    counter = driving.new(2)
    driving.call(counter, "myself", HANDLE)  # the reference answers itself too
    assert evidence.diagnose((FROM_ONE,), driving.record, _CountingStub) == ""


COUNTER_CELL = '''
import torch
class Counter:
    def __init__(self, n):
        self.n, self.w = n, torch.randn(n)
    def values(self):
        return torch.arange(1, self.n + 1)
    def noise(self):
        return self.w.clone()
    def myself(self):
        return self
    def counts(self):
        return iter(range(1, self.n + 1))
def keep(obj):
    obj.n = 0
'''


@pytest.fixture(scope="module")
def counter_worker():
    from tests.engine.workers_at_hand import template_of, worker_that_ran
    with template_of("hw1_attention") as template, worker_that_ran(template, COUNTER_CELL) as conn:
        yield conn


def _recording(conn, seed=3):
    from autograder.engine.driving.student import Student
    student = Student(conn, call_seconds=30)
    record = Calls("Counter")
    student.observe(Recorder(record))
    student.reset(seed)
    return student, record


def test_student_records_what_the_test_does_to_a_class_stubs_handle(counter_worker):
    """Method reads and calls, attribute reads, list() and seeds: in order, each Step
    naming the entry that answered its handle; the mistake is then named."""
    student, record = _recording(counter_worker)
    m = student.Counter(3)
    assert m.n == 3
    assert m.values().tolist() == [1, 2, 3]
    student.seed(5)
    second = student.Counter(2)
    noise = second.noise()
    assert m.myself().type_name == "Counter"
    assert student.list(m.counts()) == [1, 2, 3]
    steps = [(c.on, c.op) if isinstance(c, Step) else "call" for c in record.calls]
    assert steps == ["call", (0, "getattr"), (0, "getattr"), (2, "call"), "call", (4, "getattr"),
                     (5, "call"), (0, "getattr"), (7, "call"), (0, "getattr"), (9, "call"),
                     (10, "list")]
    assert (record.seed, record.seeds, record.driven, record.spoiled) == (3, [(4, 5)], True, False)
    with checks.seeded(5):
        assert torch.equal(noise, torch.randn(2))
    assert evidence.diagnose((FROM_ONE, PLAIN_SELF), record, _CountingStub) == FROM_ONE.text()


def test_a_recorded_handle_sent_elsewhere_spoils_the_record(counter_worker):
    """The student's code may change an object it is given where no Step sees it."""
    student, record = _recording(counter_worker)
    m = student.Counter(3)
    m.values()
    assert not record.spoiled
    student.keep(m)
    assert record.spoiled
    assert evidence.diagnose((FROM_ONE,), record, _CountingStub) == ""


def test_driven_answers_are_kept_for_the_same_inputs_only():
    """A class stub's replay is kept per (stub, inputs): a later submission failing the
    same test on the same inputs is compared without building the models again; other
    inputs, another seed or another stub drive afresh; the verdict never changes."""
    built = []

    class Counted(_CountsFromOne):
        def __init__(self, n):
            built.append(n)
            super().__init__(n)

    counted = Diagnosis("Counter", Counted, "from one", "Part 3")

    def record(n, seed=0):
        driving = _Driving(seed)
        driving.call(driving.new(n), "values", torch.arange(1, n + 1))
        return driving.record

    for _ in range(3):
        assert evidence.diagnose((counted,), record(4), _CountingStub) == counted.text()
    assert built == [4]  # driven once, kept since
    assert evidence.diagnose((counted,), record(5), _CountingStub) == counted.text()
    assert evidence.diagnose((counted,), record(4, seed=1), _CountingStub) == counted.text()
    assert built == [4, 5, 4]
    other = record(4)
    other.calls[-1] = Step(other.calls[-1].on, "call", (), {}, torch.arange(4))
    assert evidence.diagnose((counted,), other, _CountingStub) == ""  # a student's other answer
    assert built == [4, 5, 4]
    # a drive stopped at a student's other answer is driven on for one who agrees with it
    wrong = record(6)
    wrong.calls[-1] = Step(wrong.calls[-1].on, "call", (), {}, torch.arange(6))
    assert evidence.diagnose((counted,), wrong, _CountingStub) == ""
    for _ in range(2):
        assert evidence.diagnose((counted,), record(6), _CountingStub) == counted.text()
    assert built == [4, 5, 4, 6, 6]
    # a digest tells dtypes, shapes and values apart, and refuses what it cannot read
    digest = lambda args: inputs_digest(_args_record(args))
    assert len({digest((torch.zeros(2),)), digest((torch.zeros(2, dtype=torch.float64),)),
                digest((torch.zeros(1, 2),)), digest((torch.ones(2),)), digest(([0.0, 0.0],)),
                digest(((0.0, 0.0),))}) == 6
    assert digest((object(),)) is None


def test_a_verdict_is_kept_for_an_identical_record_only():
    """An earlier submission's diagnosis is given to a record equal to its own in
    everything diagnose reads (answers bit for bit, types, shapes, the exception, the
    Steps, the seeds, an earlier test's answer); any difference diagnoses afresh, and
    what cannot be digested (a twin, an unknown object) is never kept."""
    runs = []
    kept = verdicts.Verdicts()

    def diagnosis(candidates, record, reference=_ref):
        return kept.diagnosis(candidates, record, reference, lambda: runs.append(1) or
                              evidence.diagnose(candidates, record, reference))

    twos = lambda: _record((2, torch.full((2,), 2.0)))
    assert diagnosis((TWOS,), twos()) == TWOS.text() and len(runs) == 1
    assert diagnosis((TWOS,), twos()) == TWOS.text() and len(runs) == 1 and kept.hits == 1
    assert diagnosis((TWOS, UNCHECKED), twos()) == TWOS.text() and len(runs) == 2  # other candidates
    assert diagnosis((TWOS,), twos(), _counts) == TWOS.text() and len(runs) == 3  # other reference
    before = twos()
    before.answered_before = True
    others = [_record((2, torch.tensor([2.0, 2.0000002]))), _record((2, torch.full((2,), 2.0).double())),
              _record((2, torch.full((1, 2), 2.0))), _record((3, torch.full((2,), 2.0))),
              _record((2, Raised(["ValueError"], "a"))), _record((2, Raised(["ValueError"], "b"))),
              _record((2, Raised(["TypeError"], "a"))), _record((2, torch.full((2,), 2.0)), (2, None)),
              before]
    digests = {verdicts.record_digest(r) for r in others + [twos()]}
    assert None not in digests and len(digests) == len(others) + 1
    for r in others:
        diagnosis((TWOS,), r)
    assert len(runs) == 3 + len(others)
    # driven records: the Steps and the seeds are part of the key, a handle is a handle
    digest = []
    for seed, answer in ((0, torch.arange(1, 4)), (0, torch.arange(1, 4)), (1, torch.arange(1, 4)),
                         (0, torch.arange(0, 3)), (0, HANDLE)):
        d = _Driving(seed)
        d.call(d.new(3), "values", answer)
        digest.append(verdicts.record_digest(d.record))
    assert digest[0] == digest[1] and len(set(digest)) == 4 and None not in digest
    # never kept: a twin, an answer the digest cannot read, a diagnosis that ran out of time
    assert verdicts.record_digest(_handle_record(6, lambda: _Counter(3))) is None
    assert verdicts.record_digest(_record((2, object()))) is None

    def overrun():
        raise budget.GraderOverrun(1.0)
    with pytest.raises(budget.GraderOverrun):
        kept.diagnosis((UNCHECKED,), twos(), _ref, overrun)
    assert diagnosis((UNCHECKED,), twos()) == "" and len(runs) == 4 + len(others)


def _args_record(args):
    calls = Calls("f")
    calls.add(args, {}, 0)
    return calls


def test_a_replay_runs_on_copies_of_the_arguments():
    """A mistake may modify its arguments in place: the recorded ones stay as the test
    sent them, an object passed twice is still one object in the replay, and anything
    but plain data (and handles with a twin) is not replayed."""
    from collections import OrderedDict
    x, a = torch.ones(3), np.zeros(2)
    args = (x, [a, x], OrderedDict(w=x), torch.Size([2]), np.float32(2.0))
    seen = []

    def mistake(x, pair, state, size, scale):
        seen.append((pair[1] is x, state["w"] is x))
        x.add_(1)
        pair[0][:] = 5
        return size, scale
    assert replay.answer(mistake, args, {}) == (torch.Size([2]), np.float32(2.0))
    assert seen == [(True, True)]
    assert torch.equal(x, torch.ones(3)) and not a.any()
    with pytest.raises(Unreplayable):
        replay.answer(mistake, ([object()],), {})
