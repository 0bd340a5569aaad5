"""Does the exam hand out fair, well-spread variants, and grade each one right?

Unit tests without workers: the derivation, the tables against torch, the
notebook's public helper against the grader's, and every hidden test of the
exam run on every variant with a fake student (the reference's answers, then
typical wrong answers), so no variant is left unchecked.
"""
from __future__ import annotations

import contextlib
import hashlib
import io
import math
import shutil
from collections import Counter

import jupytext
import numpy as np
import pytest
import torch
from torch import nn

from autograder import paths
from autograder.build import copies
from autograder.checks import Fail
from autograder.engine.results import SubmissionResult
from autograder.engine import assignment as assignment_mod
from autograder.engine import config
from autograder.engine.diagnoses import evidence
from autograder.engine.diagnoses.record import record_for
from autograder.engine.driving.student import StudentError
from autograder.exam import grading, identity, variants
from autograder.exam_midterm import reference as ref
from tests.build import test_public_checks as public_checks
from tests.exam.answers import parameters, right_answers
from autograder.exam_midterm import (test_chance_level, test_cross_attention_shape,
                                     test_encoder_params, test_identity, test_key_padding_mask,
                                     test_mask_fraction, test_perplexity)

QUESTIONS = list(ref.VARIANTS) + list(ref.CODING_SEEDS)
DIAGNOSES = assignment_mod.load("exam_midterm").diagnoses
IDS = [f"s{n:05d}" for n in range(2000)]
# chi-square with 15 degrees of freedom (16 variants): P(X > 56.49) = 1e-6,
# computed as the root of torch.special.gammaincc(7.5, x / 2) = 1e-6.
CHI2_15_1E6 = 56.49


# ---- derivation ----------------------------------------------------------------

def test_derivation_is_stable():
    """Are the variants of fixed ids the same as when the exam was written?"""
    got = {sid: [variants.variant_index(ref.EXAM, q, sid, 16) for q in QUESTIONS]
           for sid in ("s1001", "alice@uni.edu")}
    assert got == {"s1001": [5, 4, 9, 6, 11, 3], "alice@uni.edu": [6, 8, 15, 7, 1, 13]}


def test_identity_is_canonical():
    """Do case and surrounding or repeated spaces leave the variants unchanged?"""
    for q in QUESTIONS:
        assert {variants.variant_index(ref.EXAM, q, s, 16)
                for s in ("Ada@Uni.EDU", " ada@uni.edu ", "ada@uni.edu\n")} == \
            {variants.variant_index(ref.EXAM, q, "ada@uni.edu", 16)}


@pytest.mark.parametrize("question", QUESTIONS)
def test_variants_are_well_spread(question):
    """Do 2000 consecutive student numbers fill the 16 variants evenly (chi-square)?"""
    counts = Counter(variants.variant_index(ref.EXAM, question, sid, 16) for sid in IDS)
    expected = len(IDS) / 16
    chi2 = sum((counts.get(v, 0) - expected) ** 2 / expected for v in range(16))
    assert chi2 < CHI2_15_1E6, f"{question}: chi-square {chi2:.1f} over 16 variants"


def test_neighbours_differ():
    """Do consecutive ids almost never share all four short-answer variants?"""
    def key(sid):
        return tuple(variants.variant_index(ref.EXAM, q, sid, 16) for q in ref.VARIANTS)
    same = sum(key(a) == key(b) for a, b in zip(IDS, IDS[1:]))
    # P(same) = 16**-4 per pair: 1999 pairs give a Poisson mean of 0.03, and
    # P(more than 3) < 4e-8.
    assert same <= 3
    # each question alone: same variant with probability 1/16, mean 125 of 1999
    # pairs, sd 10.8; 6 sd is a bound with false-fail probability < 1e-8.
    for q in ref.VARIANTS:
        shared = sum(variants.variant_index(ref.EXAM, q, a, 16) ==
                     variants.variant_index(ref.EXAM, q, b, 16) for a, b in zip(IDS, IDS[1:]))
        assert abs(shared - 1999 / 16) < 6 * math.sqrt(1999 / 16 * 15 / 16), q


def test_variants_are_independent_across_questions():
    """Is one question's variant no hint of another's (16 x 16 contingency, chi-square)?"""
    ids = [f"u{n}" for n in range(8000)]
    a = [variants.variant_index(ref.EXAM, "encoder_params", s, 16) for s in ids]
    b = [variants.variant_index(ref.EXAM, "mask_fraction", s, 16) for s in ids]
    table = Counter(zip(a, b))
    expected = len(ids) / 256
    chi2 = sum((table.get((i, j), 0) - expected) ** 2 / expected
               for i in range(16) for j in range(16))
    # 225 degrees of freedom: mean 225, sd 21.2; the 1e-6 tail starts near 360
    # (Wilson-Hilferty: 225 * (1 - 2/2025 + 4.753 * sqrt(2/2025))**3 = 359.6).
    assert chi2 < 359.6


# ---- the tables: no degenerate variant, answers as torch computes them -------------

def rows(question):
    return [dict(r) for r in ref.tables()[question]]


@pytest.mark.parametrize("p", rows("encoder_params"), ids=lambda p: f"d{p['d_model']}")
def test_encoder_count_matches_torch(p):
    """Is the expected count that of torch's own TransformerEncoderLayer?"""
    assert p["d_model"] % p["heads"] == 0
    layer = nn.TransformerEncoderLayer(p["d_model"], p["heads"], p["d_ff"], device="meta")
    assert ref.encoder_params(**p) == sum(t.numel() for t in layer.parameters())


@pytest.mark.parametrize("p", rows("cross_attention_shape"), ids=lambda p: f"d{p['d_model']}")
def test_cross_attention_shape_matches_torch(p):
    """Is the expected shape the one nn.MultiheadAttention returns, and every axis distinct?"""
    sizes = [p["batch"], p["heads"], p["n_src"], p["n_tgt"]]
    assert len(set(sizes)) == 4, "a swapped or dropped axis must change the shape"
    assert p["d_model"] // p["heads"] not in (p["n_src"], p["n_tgt"]), "head width as a length"
    attn = nn.MultiheadAttention(p["d_model"], p["heads"], batch_first=True)
    y = torch.zeros(p["batch"], p["n_tgt"], p["d_model"])
    h = torch.zeros(p["batch"], p["n_src"], p["d_model"])
    _, w = attn(y, h, h, need_weights=True, average_attn_weights=False)
    assert tuple(w.shape) == ref.cross_attention_shape(**p)


@pytest.mark.parametrize("p", rows("mask_fraction"), ids=lambda p: f"T{p['seq_len']}")
def test_mask_fraction_matches_simulation(p):
    """Does corrupting 2 million positions show [MASK] at the expected rate?"""
    rng = np.random.default_rng(p["seq_len"])
    n_seq = 2_000_000 // p["seq_len"]
    special = np.zeros(p["seq_len"], bool)
    special[:p["n_special"] - 1] = True
    special[-1] = True  # [CLS] ... [SEP] (and a middle [SEP] for pairs)
    selected = (rng.random((n_seq, p["seq_len"])) < p["select_prob"]) & ~special
    u = rng.random((n_seq, p["seq_len"]))
    masked = selected & (u < p["mask_prob"])  # the next random_prob gives ordinary tokens
    f = ref.mask_fraction(**p)
    n = masked.size
    # Positions are independent given the layout; the count is a sum of n
    # Bernoulli(f_i) with variance <= n f (1 - f). 5.5 sd: two-sided tail < 4e-8.
    assert abs(masked.sum() / n - f) < 5.5 * math.sqrt(f * (1 - f) / n)
    assert 0 < f < p["select_prob"] * p["mask_prob"]


@pytest.mark.parametrize("p", rows("chance_level"), ids=lambda p: f"V{p['vocab_size']}")
def test_chance_level_matches_torch(p):
    """Is the expected loss torch's cross-entropy of a uniform head over the ordinary ids?"""
    logits = torch.zeros(3, p["vocab_size"], dtype=torch.float64)
    logits[:, :p["n_special"]] = float("-inf")
    labels = torch.tensor([p["n_special"], p["vocab_size"] - 1, p["n_special"] + 1])
    loss = torch.nn.functional.cross_entropy(logits, labels).item()
    assert loss == pytest.approx(ref.chance_loss(**p), abs=1e-12)
    assert math.exp(loss) == pytest.approx(ref.chance_perplexity(**p), rel=1e-12)


def test_notebook_helper_derives_the_same_numbers():
    """Does the notebook's public exam_parameters give the grader's numbers?"""
    master = jupytext.reads(copies.filled(
        (paths.SOLUTIONS / "exam_midterm" / "exam_midterm.py").read_text()), fmt="py:percent")
    helper = next(c.source for c in master.cells
                  if c.cell_type == "code" and "def exam_parameters" in c.source)
    namespace = {"hashlib": hashlib}  # imported by the notebook's first cell
    with contextlib.redirect_stdout(io.StringIO()):
        exec(helper.replace("P = exam_parameters(STUDENT_ID)", ""), namespace)
        for sid in IDS[:300] + ["Ada@Uni.edu ", "x"]:
            got = namespace["exam_parameters"](sid)
            want = variants.parameters(ref.EXAM, ref.tables(), sid)
            assert got == {q: {k: v for k, v in p.items() if k != "variant"}
                           for q, p in want.items()}, sid
    built = paths.ASSIGNMENTS / "exam_midterm" / "exam_midterm.ipynb"
    if built.is_file():
        assert "def exam_parameters" in built.read_text()


# ---- every hidden test on every variant, with a fake student -------------------------

class FakeStudent:
    """The notebook's globals, in the trusted process; calls raise StudentError."""

    def __init__(self, **names):
        self._names = names
        self._record = None  # a Calls, as the engine's Student keeps one

    def record_answer(self, question, kwargs, answer):
        if self._record is not None and self._record.name == question:
            self._record.add((), dict(kwargs), answer)

    def has(self, name):
        return name in self._names

    def value(self, name):
        return self._names[name]

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        func = self._names[name]

        def call(*args, **kwargs):
            try:
                return func(*args, **kwargs)
            except Exception as exc:
                raise StudentError({"type": type(exc).__name__,
                                    "mro": [c.__name__ for c in type(exc).__mro__],
                                    "message": str(exc)}, f"{name}(...)") from None
        return call


def identity_for(question, v):
    """The first student number whose variant of `question` is v."""
    return next(s for s in (f"s{n}" for n in range(100_000))
                if variants.variant_index(ref.EXAM, question, s, 16) == v)


def correct_answers(sid):
    return dict(STUDENT_ID=sid, **right_answers(sid), key_padding_mask=ref.key_padding_mask,
                perplexity=ref.perplexity), parameters(sid)


MODULES = {"identity": test_identity, "encoder_params": test_encoder_params,
           "cross_attention_shape": test_cross_attention_shape,
           "mask_fraction": test_mask_fraction, "chance_level": test_chance_level,
           "key_padding_mask": test_key_padding_mask, "perplexity": test_perplexity}


def run_question(question, names, sid, diagnosed=None):
    """{test name: None if passed else the failure message} for one question;
    `diagnosed` ({}), filled with {failed test name: its diagnosis, "" for none}."""
    submission = SubmissionResult(sid, "exam_midterm")
    student = FakeStudent(**names)
    candidates = DIAGNOSES.get(question, ())
    out = {}
    module = MODULES[question]
    for name, func in vars(module).items():
        if not name.startswith("test_") or not callable(func):
            continue
        fixtures = {"student": student, "submission": submission, "ref": ref}
        params = func.__code__.co_varnames[:func.__code__.co_argcount]
        student._record = record_for(question, candidates)
        try:
            func(**{k: fixtures[k] for k in params})
            out[name] = None
        except Fail as exc:
            out[name] = str(exc)
            if diagnosed is not None:
                diagnosed[name] = evidence.diagnose(candidates, student._record,
                                                    getattr(ref, question))
    return out


@pytest.mark.parametrize("question", QUESTIONS)
def test_correct_answers_get_full_marks_in_every_variant(question):
    """Do the reference's answers pass every test of the question, in all 16 variants?"""
    for v in range(16):
        sid = identity_for(question, v)
        names, _ = correct_answers(sid)
        failed = {k: m for k, m in run_question(question, names, sid).items() if m}
        assert not failed, f"variant {v} ({sid}): {failed}"


def test_correct_answers_in_other_forms_pass():
    """Do a float count, a list or numpy shape, numpy scalars and a spaced, upper-case id pass?"""
    sid = "s1001"
    names, _ = correct_answers(sid)
    names.update(STUDENT_ID=" S1001 ", ENCODER_LAYER_PARAMS=float(names["ENCODER_LAYER_PARAMS"]),
                 CROSS_ATTENTION_SHAPE=np.array(names["CROSS_ATTENTION_SHAPE"]),
                 MASK_FRACTION=np.float32(names["MASK_FRACTION"]),
                 CHANCE_PERPLEXITY=np.int64(names["CHANCE_PERPLEXITY"]))
    for q in ref.VARIANTS:
        assert not any(run_question(q, names, sid).values()), q
    assert not any(run_question("identity", names, sid).values())
    names["CROSS_ATTENTION_SHAPE"] = list(names["CROSS_ATTENTION_SHAPE"])
    assert not any(run_question("cross_attention_shape", names, sid).values())


# Typical wrong answers: question -> {mistake: f(numbers) -> {global: value}}
# (None: the mistake changes nothing in that variant).
def _enc(f):
    return lambda p: {"ENCODER_LAYER_PARAMS": f(p["d_model"], p["d_ff"])}


def _full(d, f):
    return ref.encoder_params(d, 1, f)


def _shape(*axes):
    return lambda p: {"CROSS_ATTENTION_SHAPE": tuple(
        p["d_model"] // p["heads"] if a == "d_head" else p[a] for a in axes)}


def _frac(f):
    return lambda p: {"MASK_FRACTION": float(f(p["seq_len"], p["n_special"], p["select_prob"],
                                                p["mask_prob"], p["random_prob"]))}


def _rounded_fraction(p):
    value = round(ref.mask_fraction(**p), 3)
    return {"MASK_FRACTION": value} if abs(value - ref.mask_fraction(**p)) > 1e-4 else None


def _chance(**answers):
    return lambda p: {k: f(p["vocab_size"], p["n_special"]) for k, f in answers.items()}


MISTAKES = {
    "encoder_params": {
        "12 d^2 rule": _enc(lambda d, f: 12 * d * d),
        "8 d^2 rule": _enc(lambda d, f: 8 * d * d),
        "no biases, no LayerNorms": _enc(lambda d, f: 4 * d * d + 2 * d * f),
        "forgot the biases": _enc(lambda d, f: 4 * d * d + 2 * d * f + 4 * d),
        "forgot the LayerNorms": _enc(lambda d, f: _full(d, f) - 4 * d),
        "one LayerNorm, or LayerNorms without bias": _enc(lambda d, f: _full(d, f) - 2 * d),
        "attention without output projection": _enc(lambda d, f: _full(d, f) - d * d - d),
        "feed-forward counted once": _enc(lambda d, f: _full(d, f) - d * f - d),
    },
    "cross_attention_shape": {
        "source and target swapped": _shape("batch", "heads", "n_src", "n_tgt"),
        "averaged over heads": _shape("batch", "n_tgt", "n_src"),
        "no batch axis": _shape("heads", "n_tgt", "n_src"),
        "self-attention square": _shape("batch", "heads", "n_tgt", "n_tgt"),
        "heads after queries": _shape("batch", "n_tgt", "heads", "n_src"),
        "head width for keys": _shape("batch", "heads", "n_tgt", "d_head"),
    },
    "mask_fraction": {
        "select_prob alone": _frac(lambda t, k, s, m, r: s),
        "specials selected too": _frac(lambda t, k, s, m, r: s * m),
        "random replacements counted": _frac(lambda t, k, s, m, r: s * (m + r) * (t - k) / t),
        "mask_prob alone": _frac(lambda t, k, s, m, r: m),
        "fraction of ordinary positions": _frac(lambda t, k, s, m, r: s * m * t / (t - k)),
        "rounded to 3 decimals": _rounded_fraction,
    },
    "chance_level": {
        "specials kept": _chance(CHANCE_LOSS=lambda v, k: math.log(v),
                                 CHANCE_PERPLEXITY=lambda v, k: float(v)),
        "bits instead of nats": _chance(CHANCE_LOSS=lambda v, k: math.log2(v - k)),
        "perplexity given as the loss": _chance(CHANCE_PERPLEXITY=lambda v, k: math.log(v - k)),
        "loss rounded to 2 decimals": _chance(CHANCE_LOSS=lambda v, k: round(math.log(v - k), 2)),
    },
}


@pytest.mark.parametrize("question, mistake",
                         [(q, m) for q, ms in MISTAKES.items() for m in ms])
def test_typical_wrong_answer_loses_points_in_every_variant(question, mistake):
    """Does the mistake fail a correctness test (and no format test) in every variant,
    with a message that does not give the expected value away?"""
    for v in range(16):
        sid = identity_for(question, v)
        names, p = correct_answers(sid)
        wrong = MISTAKES[question][mistake](p[question])
        if wrong is None:  # the mistake changes nothing in this variant (rounding)
            continue
        expected = {k: names[k] for k in wrong}
        names.update(wrong)
        result = run_question(question, names, sid)
        assert result["test_answer_format"] is None, f"variant {v}: format check failed"
        failures = [m for m in result.values() if m]
        assert failures, f"variant {v} ({sid}): {mistake} got full marks"
        for value in expected.values():
            shown = repr(value) if not isinstance(value, float) else f"{value:.6g}"
            assert all(shown not in m and repr(value) not in m for m in failures), \
                f"variant {v}: a message gives the expected value away: {failures}"


# The typical wrong answers the exam diagnoses (autograder/exam_midterm/diagnoses.py):
# (question, mistake above) -> the mistake function that makes it.
DIAGNOSED = {("encoder_params", "12 d^2 rule"): "params_12_d_squared",
             ("cross_attention_shape", "source and target swapped"): "shape_source_first",
             ("mask_fraction", "specials selected too"): "fraction_specials_selected",
             ("chance_level", "specials kept"): "chance_whole_vocabulary"}


@pytest.mark.parametrize("question, mistake",
                         [(q, m) for q, ms in MISTAKES.items() for m in ms])
def test_diagnosed_in_every_variant_and_the_others_never(question, mistake):
    """Is a diagnosed wrong answer named, on the student's own numbers, by every test it
    fails in all 16 variants, and every other typical wrong answer by none (but where
    its numbers make it the very answer of a diagnosed one: no biases, no LayerNorms
    is 12 d^2 where d_ff = 4 d)?"""
    texts = {d.mistake.__name__: d.text() for d in DIAGNOSES[question]}
    named = 0
    for v in range(16):
        sid = identity_for(question, v)
        names, p = correct_answers(sid)
        wrong = MISTAKES[question][mistake](p[question])
        if wrong is None:
            continue
        names.update(wrong)
        diagnosed = {}
        failed = {k for k, m in run_question(question, names, sid, diagnosed).items() if m}
        assert set(diagnosed) == failed
        same = {texts[f] for (q, m), f in DIAGNOSED.items()
                if q == question and MISTAKES[q][m](p[question]) == wrong}
        assert set(diagnosed.values()) == (same or {""}), f"variant {v} ({sid}): {diagnosed}"
        named += bool(same)
    if (question, mistake) in DIAGNOSED:
        assert named == 16


def test_mistakes_never_cost_points_elsewhere():
    """Does a wrong short answer leave the other questions at full marks?"""
    sid = "s1001"
    for question, mistakes in MISTAKES.items():
        for mistake, make in mistakes.items():
            names, p = correct_answers(sid)
            wrong = make(p[question])
            if wrong is None:
                continue
            names.update(wrong)
            for other in QUESTIONS:
                if other != question:
                    assert not any(run_question(other, names, sid).values()), (mistake, other)


# ---- identity resolution --------------------------------------------------------------

GRADESCOPE = {"users": [{"email": "Ada@Uni.edu", "name": "Ada L", "sid": "S2001"}]}


@pytest.mark.parametrize("claimed, status, graded_as", [
    ("s2001", identity.MATCH, "s2001"),
    (" ada@uni.EDU ", identity.MATCH, "ada@uni.edu"),
    ("s2002", identity.MISMATCH, "s2001"),
    ("", identity.UNSET, "s2001"),
    (None, identity.UNSET, "s2001"),
    (Ellipsis, identity.UNSET, "s2001"),
])
def test_identity_resolution_on_gradescope(claimed, status, graded_as):
    """Is the claim checked against the Gradescope user's sid and e-mail, sid first?"""
    who = identity.resolve("123456", GRADESCOPE, claimed)
    assert (who.status, who.graded_as) == (status, graded_as)
    assert who.flagged == (status != identity.MATCH)
    if who.flagged:
        assert who.message().startswith("IDENTITY FLAG")


def test_identity_without_metadata_is_the_submission_id():
    """Locally, is the file name the identity (and a group's every member accepted)?"""
    assert identity.resolve("S1001", {}, "s1001").status == identity.MATCH
    assert identity.resolve("s1001", {}, "s1002").graded_as == "s1001"
    group = {"users": [{"sid": "a1", "email": ""}, {"sid": "b2", "email": "b@x.org"}]}
    assert identity.known_identities("sub", group) == ["a1", "b2", "b@x.org"]
    assert identity.resolve("sub", group, "b@x.org").status == identity.MATCH
    assert identity.known_identities("sub", {"users": "garbage"}) == ["sub"]


def test_grader_knows_fields_from_the_config():
    """Does the exam's config name the identity fields and free-response questions?"""
    s = grading.settings("exam_midterm")
    assert s.identity_fields == ("sid", "email", "canvas_user_id")
    assert s.free_response == ("fr_bidirectional", "fr_variant_check")
    assert grading.settings("hw1_attention") == config.Exam()
    assert config.load("hw1_attention").exam is None


@pytest.mark.parametrize("table, message", [
    ('identity = ["sid"]', "holds `identity_fields`"),
    ('identity_fields = "sid"', "identity_fields must be a list of distinct names"),
    ('identity_fields = ["sid", "sid"]', "identity_fields must be a list of distinct names"),
    ('identity_fields = []', "identity_fields names no field"),
    ('free_response = ["fr one"]', "free_response must be a list of distinct names"),
    ('free_response = ["fr_one"]', "the free-response questions .'fr_one'. of .exam. have no points"),
])
def test_a_wrong_exam_table_is_refused(tmp_path, monkeypatch, table, message):
    """The [exam] table is read when the config is loaded: a misspelt key or a wrong
    value is a ConfigError that says what it holds, not a default taken silently."""
    folder = tmp_path / "grading_config"
    shutil.copytree(paths.CONFIG, folder)
    monkeypatch.setattr(paths, "CONFIG", folder)
    path = folder / "hw1_attention.toml"
    path.write_text(path.read_text() + f"\n[exam]\n{table}\n")
    with pytest.raises(config.ConfigError, match=message):
        config.load("hw1_attention")


# ---- no answer leaks in the student notebook ---------------------------------------------

def public_tests():
    """The public test functions of the built notebook, by question, as otter runs them."""
    return public_checks.public_tests("exam_midterm")


def test_public_checks_cannot_tell_right_from_wrong():
    """Do the notebook's public checks pass a well-formed wrong answer as readily as a right one?"""
    sid = "s1001"
    names, p = correct_answers(sid)
    for question, sources in public_tests().items():
        if question not in MISTAKES:
            continue
        for mistake, make in MISTAKES[question].items():
            wrong = make(p[question])
            if wrong is None:
                continue
            for answers in (names, {**names, **wrong}):
                for func in sources:
                    args = func.__code__.co_varnames[:func.__code__.co_argcount]
                    func(**{a: answers.get(a, {"np": np}.get(a)) for a in args})  # raises if it fails


def test_student_notebook_holds_no_answers():
    """Does the built student notebook hold no reference formula or expected value?"""
    built = paths.ASSIGNMENTS / "exam_midterm" / "exam_midterm.ipynb"
    if not built.is_file():
        pytest.skip("student notebook not built")
    text = built.read_text()
    for needle in ("4 * d * d", "select_prob\"] * ", "math.log(P[", "n_tgt\"], P[",
                   "BEGIN SOLUTION", "# SOLUTION"):
        assert needle not in text, needle


# ---- difficulty per variant -----------------------------------------------------------------

def test_difficulty_rows_and_homogeneity_test():
    """Are variants grouped per question, and is the chi-square p-value right (2 x 2: erfc)?"""
    from autograder.exam.reports import difficulty, homogeneity_p

    def result(sid, variant, score):
        r = SubmissionResult(sid, "exam_midterm")
        r.annotations["exam"] = {"variants": {"encoder_params": variant}}
        r.tests = [type("T", (), {"question": "encoder_params", "score": score})()]
        return r
    results = [result(f"a{i}", 0, 3.0 if i < 9 else 0.5) for i in range(10)]
    results += [result(f"b{i}", 1, 3.0 if i < 1 else 0.0) for i in range(10)]
    rows = difficulty(results, ["encoder_params"], {"encoder_params": 3.0})
    assert [(r["variant"], r["submissions"], r["full_marks"]) for r in rows] == [(0, 10, 9), (1, 10, 1)]
    # pooled rate 1/2: chi-square = 4 * 4**2 / 5 = 12.8 on 1 df, p = erfc(sqrt(12.8 / 2))
    assert homogeneity_p(rows) == pytest.approx(math.erfc(math.sqrt(6.4)), rel=1e-9)
    assert homogeneity_p(rows[:1]) is None
    assert homogeneity_p([dict(rows[0], full_marks=10), dict(rows[1], full_marks=10)]) is None
