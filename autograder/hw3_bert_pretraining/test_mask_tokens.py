"""Hidden tests: mask_tokens.

mask_tokens is random, so it is graded on its distribution and its
invariants, never on one draw: any correct sampler, whatever order it draws
its random numbers in, gets full marks. The invariant checks are exact (a
correct sampler never fails them) and made by one test; the statistical tests
read the counts they need whatever the invariants say, so that each mistake
fails the tests of the properties it breaks and no others. Each statistical check compares a count
with the exact binomial distribution a correct sampler gives it (see
autograder/binomial.py), at a level chosen so that a correct sampler fails a test with
probability at most 1e-6; the derivation is written next to each bound.
Every call gets a fresh numpy Generator built in the worker from a fixed seed.
"""
from __future__ import annotations

import numpy as np

from autograder.testing import (ALPHA, as_array, expect_dtype, expect_ndarray, expect_shape, fail,
                                format_test, interval, once, sent_source)

QUESTION = "mask_tokens"

VOCAB = 50
PAD, CLS, SEP, MASK = 0, 7, 19, 31      # not the first ids: "specials are 0..3" is a mistake
SPECIALS = [PAD, CLS, SEP, MASK]
ORDINARY = np.setdiff1d(np.arange(VOCAB), SPECIALS)  # the 46 ids a random replacement may take
M = len(ORDINARY)
IS_SPECIAL = np.isin(np.arange(VOCAB), SPECIALS)  # read by id: a tenth of np.isin's time


def _special(ids):
    """Whether each id of a test's input (ids in [0, VOCAB)) is a special one."""
    return IS_SPECIAL[ids]


def _ordinary(values):
    """Whether each value of a student's answer (any integers) is an ordinary id."""
    inside = (values >= 0) & (values < VOCAB)
    return inside & ~IS_SPECIAL[np.where(inside, values, 0)]
PROBS = ("select_prob", "mask_prob", "random_prob")
DEFAULTS = (0.15, 0.8, 0.1)             # the contract's defaults
SETTINGS = ((None, (1, 2, 3, 4)),       # (probabilities, None for the defaults; batch seeds)
            ((0.4, 0.5, 0.3), (30, 31)),
            ((0.25, 0.2, 0.5), (32, 33)),
            ((0.0, 0.8, 0.1), (50,)),     # the edges: exact counts, nothing left to chance
            ((1.0, 1.0, 0.0), (51,)))
# Every setting the other tests call with, beyond the defaults: the types and the exact
# rules are checked in each (a test that reads the counts leaves them to those tests).
TYPED_SETTINGS = ((0.5, 0.6, 0.3), (1.0, 0.0, 1.0), (0.3, 0.0, 0.0),
                  *(probs for probs, _ in SETTINGS if probs is not None))

UNTOUCHED = sent_source(__file__, "mask_tokens_untouched")


@once
def _batch(seed: int, rows: int, length: int) -> np.ndarray:
    """Rows shaped like BERT inputs: [CLS] A [SEP] B [SEP] [PAD]..., ordinary ids uniform."""
    g = np.random.default_rng(seed)
    ids = g.choice(ORDINARY, size=(rows, length))
    for r in range(rows):
        sep = int(g.integers(2, length - 3))
        end = int(g.integers(sep + 2, length + 1))
        ids[r, 0], ids[r, sep], ids[r, end - 1] = CLS, SEP, SEP
        ids[r, end:] = PAD
    ids.setflags(write=False)
    return ids


@once
def _full_rows(seed: int, rows: int, width: int) -> np.ndarray:
    """Rows [CLS] + `width` ordinary ids + [SEP], no padding: every row has `width` candidates."""
    ids = np.random.default_rng(seed).choice(ORDINARY, size=(rows, width + 2))
    ids[:, 0], ids[:, -1] = CLS, SEP
    ids.setflags(write=False)
    return ids


def _call(student, ids, seed, probs=None, rng=None, ints=(VOCAB, MASK, SPECIALS), what=None):
    """One call with a fresh default_rng(seed) made in the worker (or the given rng
    handle); (corrupted, labels, description), the outputs as int64. Any pair of
    integer arrays of the input's shape is read (an int32 or a list answer too: the
    exact types are test_types_and_shapes's subject). ints: vocab_size, mask_id and
    special_ids (the same values, of other types, in test_numpy_and_int_arguments)."""
    rng = rng if rng is not None else student.new("numpy.random.default_rng", seed)
    kwargs = dict(zip(PROBS, probs)) if probs is not None else {}
    what = what or f"mask_tokens(ids of shape {ids.shape}, {_shown(probs)})"
    vocab_size, mask_id, special_ids = ints
    out = student.mask_tokens(ids, vocab_size, mask_id, list(special_ids), rng, **kwargs)
    if not isinstance(out, tuple) or len(out) != 2:
        fail(f"{what}: expected a tuple (corrupted, labels), got {type(out).__name__}")
    arrays = []
    for name, value in zip(("corrupted", "labels"), out):
        arr = as_array(value, f"{what}: {name}")
        expect_shape(arr, ids.shape, f"{what}: {name}")
        if arr.dtype.kind not in "iu":
            fail(f"{what}: {name} has dtype {arr.dtype}, not an integer dtype")
        arrays.append(arr.astype(np.int64))
    return arrays[0], arrays[1], what


def _shown(probs) -> str:
    return ", ".join(f"{k}={v}" for k, v in zip(PROBS, probs)) if probs else "default probabilities"


def _check_rules(ids, corrupted, labels, what):
    """The exact rules; a correct sampler never breaks them. Checked by
    test_labels_and_corruption_rules only: the other tests read the counts
    whatever the rules say (each test fails only on its own property)."""
    special = _special(ids)
    labelled = labels != -100

    def first(bad, message):
        if bad.any():
            i = tuple(int(j) for j in np.argwhere(bad)[0])
            fail(f"{what}: {message} (at {int(bad.sum())} positions; the first at index {i}: "
                 f"input id {ids[i]}, corrupted {corrupted[i]}, label {labels[i]})")
    first(labelled & (labels != ids), "a label is neither -100 nor the position's original id")
    first(labelled & special, "a special token was selected (it has a label)")
    first(~labelled & (corrupted != ids), "a position without a label was changed")
    allowed = (corrupted == MASK) | (corrupted == ids) | _ordinary(corrupted)
    first(labelled & ~allowed, "a selected position holds neither [MASK], its original id "
                               "nor an ordinary (non-special) id in [0, vocab_size)")


def _selected(ids, labels):
    """The ordinary positions the sampler selected: those with a label. Any
    non-negative label counts (that it is the original id, and -100 elsewhere, is
    the rules' test); special positions never count (likewise)."""
    return ~_special(ids) & (labels >= 0)


def _counts(ids, corrupted, labels):
    """(ordinary positions, selected, masked, replaced by another id, kept its id)."""
    sel = _selected(ids, labels)
    masked = sel & (corrupted == MASK)
    same = sel & (corrupted == ids)
    return (int((~_special(ids)).sum()), int(sel.sum()), int(masked.sum()),
            int((sel & ~masked & ~same).sum()), int(same.sum()))


def _sample(student, probs, seeds):
    """Counts summed over one call per seed on a (32, 1024) batch (about 25k ordinary ids
    each). test_selection_rate and test_replacement_split make the same calls, each
    with a fresh generator of the same seed: the answers are read once per worker
    (Student.shared) and each test judges its own counts in them."""
    return student.shared(("mask_tokens sample", probs, seeds),
                          lambda: _sample_counts(student, probs, seeds))


def _sample_counts(student, probs, seeds):
    total = np.zeros(5, dtype=np.int64)
    for seed in seeds:
        ids = _batch(seed, 32, 1024)
        corrupted, labels, _ = _call(student, ids, 1000 + seed, probs)
        total += _counts(ids, corrupted, labels)
    return [int(t) for t in total]


def _expect_count(count, n, p, alpha, describe):
    """count must lie in the exact Bin(n, p) acceptance interval at level alpha."""
    lo, hi = interval(n, p, alpha)
    if not lo <= count <= hi:
        share = count / n if n else float("nan")
        if p <= 0.0 or p >= 1.0:
            fail(f"{describe}: {count} of {n} ({share:.2%}); with this probability a correct "
                 f"sampler gives {'none' if p <= 0.0 else 'all'} of them")
        fail(f"{describe}: {count} of {n} ({share:.2%}); a correct sampler lands this far "
             f"from {p:.4g} of them with probability below {alpha:.1e}")


def _split_probabilities(mask_prob, random_prob):
    """Among selected positions: P(masked), P(another ordinary id), P(keeps its id).
    A random replacement is uniform over the M ordinary ids, the original among them,
    so it lands on the original id with probability 1/M."""
    keep_prob = 1.0 - mask_prob - random_prob
    return mask_prob, random_prob * (M - 1) / M, keep_prob + random_prob / M


@format_test
def test_types_and_shapes(student):
    """returns a tuple of two int64 numpy arrays of the input's shape (1-D, 2-D, 3-D, int32 input)"""
    # The other tests read any integer arrays (_call): the types are checked here in the
    # settings they use too, the edges included (an early return for select_prob=0 can
    # give the input's dtype).
    base = _batch(1, 6, 16)
    cases = [(ids, None) for ids in (base[0], base, base.reshape(2, 3, 16), base.astype(np.int32))]
    cases += [(base.astype(np.int32), probs) for probs in TYPED_SETTINGS]
    for ids, probs in cases:
        rng = student.new("numpy.random.default_rng", 5)
        what = f"mask_tokens(ids of shape {ids.shape} and dtype {ids.dtype}" \
            + (f", {_shown(probs)})" if probs else ")")
        kwargs = dict(zip(PROBS, probs)) if probs is not None else {}
        out = student.mask_tokens(ids, VOCAB, MASK, list(SPECIALS), rng, **kwargs)
        if not isinstance(out, tuple) or len(out) != 2:
            fail(f"{what}: expected a tuple (corrupted, labels), got {type(out).__name__}")
        for name, arr in zip(("corrupted", "labels"), out):
            expect_ndarray(arr, f"{what}: {name}")
            expect_shape(arr, ids.shape, f"{what}: {name}")
            expect_dtype(arr, np.dtype(np.int64), f"{what}: {name}")


def test_labels_and_corruption_rules(student):
    """labels hold the original id exactly where selected; nothing else changes; specials never selected"""
    for seed, probs in enumerate((None, *TYPED_SETTINGS)):
        ids = _batch(10 + seed, 16, 256)
        corrupted, labels, what = _call(student, ids, 20 + seed, probs)
        if probs is not None and probs[0] == 1.0 and not (labels != -100).any():
            fail(f"{what}: nothing was selected, so the rules cannot be checked")
        _check_rules(ids, corrupted, labels, what)


def test_input_not_modified(student):
    """input_ids is left unchanged and both outputs are new arrays"""
    f = student.value("mask_tokens")
    for ids in (_batch(2, 8, 64), _batch(3, 4, 32)[0]):
        rng = student.new("numpy.random.default_rng", 9)
        answered, labelled, unchanged, shared = student.build(
            UNTOUCHED, "run", f, ids.copy(), VOCAB, MASK, list(SPECIALS), rng, select_prob=0.5)
        if not answered:
            fail(f"mask_tokens(ids of shape {ids.shape}) did not return a pair of numpy arrays")
        if not labelled:
            fail(f"mask_tokens(ids of shape {ids.shape}, select_prob=0.5) selected nothing, so "
                 "whether it would leave input_ids alone cannot be seen")
        if not unchanged:
            fail(f"mask_tokens(ids of shape {ids.shape}) modified input_ids in place")
        if shared:
            fail(f"mask_tokens(ids of shape {ids.shape}) returned an array sharing memory "
                 "with input_ids; return new arrays")


# The values of the other tests as other types the contract allows: numpy integers (a
# vocabulary size read off an array), integer probabilities (0 and 1), numpy floats
# (exact in float32, so that they equal the plain ones).
_NP_INTS = (np.int64(VOCAB), np.int64(MASK), [np.int64(s) for s in SPECIALS])
TYPED_CALLS = (  # ((vocab_size, mask_id, special_ids), probabilities, described)
    (_NP_INTS, (np.float64(0.5), np.float32(0.5), np.float32(0.25)),
     "numpy int64 vocab_size, mask_id and special_ids, numpy float probabilities"),
    ((VOCAB, MASK, SPECIALS), (1, 1, 0), "select_prob=1, mask_prob=1, random_prob=0"),
    ((np.int32(VOCAB), np.int32(MASK), SPECIALS), (1, 0, 1),
     "numpy int32 vocab_size and mask_id, select_prob=1, mask_prob=0, random_prob=1"),
    (_NP_INTS, (0, 1, 0), "numpy int64 vocab_size, mask_id and special_ids, select_prob=0, mask_prob=1, random_prob=0"),
)


def test_numpy_and_int_arguments(student):
    """numpy integers, integer probabilities (0, 1) and numpy floats give what the plain Python values give"""
    # Compared with the student's own output for the same values as Python ints and floats,
    # from the same rng seed: any correct sampler gives the same output.
    for i, (ints, probs, described) in enumerate(TYPED_CALLS):
        ids = _batch(90 + i, 8, 128)
        what = f"mask_tokens(ids of shape {ids.shape}, {described})"
        plain = tuple(float(p) for p in probs)
        typed = _call(student, ids, 95 + i, probs, ints=ints, what=what)[:2]
        first = _call(student, ids, 95 + i, plain)[:2]
        constant = all(np.unique(a).size < 2 for a in first)
        if plain[0] == 1.0 and (constant or not ((first[1] >= 0).any() or (first[0] != ids).any())):
            # a stand-in that answers every call alike (one constant everywhere, or nothing
            # labelled nor changed) would pass a comparison with itself
            fail(f"mask_tokens(ids of shape {ids.shape}, select_prob=1.0) "
                 + ("answered one value everywhere" if constant else
                    "neither labelled nor changed any position")
                 + ", so whether other types of the same values work cannot be seen")
        if all(np.array_equal(t, f) for t, f in zip(typed, first)):
            continue
        again = _call(student, ids, 95 + i, plain)[:2]
        if not all(np.array_equal(a, f) for a, f in zip(again, first)):
            continue  # not reproducible at all: test_reproducible_with_rng_only's subject
        fail(f"{what}: the output differs from the one for the same values as Python ints "
             "and floats, from a generator in the same state")


def test_selection_rate(student):
    """each ordinary position is selected with probability select_prob (0.15, 0.4, 0.25, 0 and 1)"""
    # A correct sampler selects each of the n ordinary positions independently with
    # probability select_prob: selected ~ Bin(n, select_prob) exactly (none for 0, all for
    # 1). Five checks, each at level ALPHA/5: by the union bound the false-fail probability
    # is at most 1e-6 (n is about 100,000 for the defaults: the interval is about 15% +- 0.6
    # points; about 50,000 for the others).
    for probs, seeds in SETTINGS:
        n, selected, *_ = _sample(student, probs, seeds)
        p = probs[0] if probs else DEFAULTS[0]
        _expect_count(selected, n, p, ALPHA / len(SETTINGS),
                      f"with {_shown(probs)}: ordinary positions selected (labelled)")


def test_replacement_split(student):
    """selected positions become [MASK], a random ordinary id or stay as mask_prob and random_prob say"""
    # Given the k selected positions, each independently is masked with probability
    # mask_prob, becomes another ordinary id with probability random_prob * (M-1)/M and
    # keeps its id with probability keep_prob + random_prob/M: each count is exactly
    # Bin(k, p) given k (all [MASK] when mask_prob is 1). Three counts in each of the five
    # settings, each checked at level ALPHA/15; by the union bound the test fails a correct
    # sampler with probability at most 1e-6 (with the defaults k is about 15,000: each
    # interval is about +- 1.5 points).
    alpha = ALPHA / (3 * len(SETTINGS))
    for probs, seeds in SETTINGS:
        _, k, masked, replaced, same = _sample(student, probs, seeds)
        if k == 0 and probs is None:
            fail(f"with {_shown(probs)}: nothing was selected, so the split cannot be measured")
        p_mask, p_other, p_same = _split_probabilities(*(probs or DEFAULTS)[1:])
        shown = _shown(probs)
        _expect_count(masked, k, p_mask, alpha, f"with {shown}: selected replaced by [MASK]")
        _expect_count(replaced, k, p_other, alpha,
                      f"with {shown}: selected replaced by another id")
        _expect_count(same, k, p_same, alpha, f"with {shown}: selected that kept their own id")


def test_random_ids_uniform(student):
    """random replacements are uniform over the ordinary ids"""
    probs = (1.0, 0.0, 1.0)                     # every ordinary position gets a random id
    hits = np.zeros(VOCAB, dtype=np.int64)
    trials = np.zeros(VOCAB, dtype=np.int64)
    for seed in (40, 41):
        ids = _batch(seed, 32, 1024)
        corrupted, _, _ = _call(student, ids, 1000 + seed, probs)
        # The ordinary positions that now hold another ordinary id; [MASK], special ids and
        # unchanged positions are the other tests' subjects, left out here.
        moved = ~_special(ids) & _ordinary(corrupted) & (corrupted != ids)
        hits += np.bincount(corrupted[moved], minlength=VOCAB)[:VOCAB]
        trials += int(moved.sum()) - np.bincount(ids[moved], minlength=VOCAB)[:VOCAB]
    if not trials.any():
        fail(f"with {_shown(probs)}: no position was replaced by another ordinary id, so the "
             "distribution of random replacements cannot be measured")
    # A correct replacement is uniform over the M ordinary ids; given that it is not the
    # position's original id o, it is uniform over the M-1 others. So, given which
    # positions moved and their originals, the number of replacements equal to id t is
    # exactly Bin(trials[t], 1/(M-1)), trials[t] counting the moved positions whose
    # original is not t. M checks, each at level ALPHA/M; union bound: the false-fail
    # probability is at most 1e-6 (trials are about 50,000, about 1,100 hits per id).
    for token in ORDINARY:
        _expect_count(int(hits[token]), int(trials[token]), 1 / (M - 1), ALPHA / M,
                      f"with {_shown(probs)}: random replacements equal to id {int(token)}")


def test_selection_is_independent(student):
    """positions are selected independently, so the number selected varies by row and by call"""
    rows, width, calls = 256, 126, (70, 71, 72, 73)
    n = rows * width
    mid = round(DEFAULTS[0] * n)                     # 4838 of 32,256
    near, shared, selected = 0, 0, 0
    for seed in calls:
        ids = _full_rows(seed, rows, width)
        corrupted, labels, _ = _call(student, ids, 1000 + seed)
        counts = _selected(ids, labels).sum(axis=1)
        selected += int(counts.sum())
        shared = max(shared, int(np.bincount(counts).max()))
        near += int(abs(int(counts.sum()) - mid) <= 1)
    # (b) A correct sampler's total per call is Bin(32256, 0.15); it lands within 1 of its
    # middle with probability near_mid = 0.0187, so in all four (independent) calls with
    # probability near_mid**4 = 1.2e-7. A sampler that picks a fixed number of positions
    # (round(select_prob * n), say) always does.
    if near == len(calls):
        fail("every call selected almost exactly select_prob times the number of ordinary "
             "positions: select each position independently (a fixed number of targets is "
             "another sampler)")
    # (a) Each row's count is Bin(126, p), independently. Whatever p between 0.01 and 0.99
    # (the rate itself is test_selection_rate's subject), no count has probability above
    # 0.36, so the number of the 256 rows of one call sharing a given count is at most
    # Bin(256, 0.37), which exceeds 192 (three quarters) with probability below 1e-35; over
    # the 127 possible counts and 4 calls, below 1e-32: (a) and (b) together stay below 1e-6.
    # Sampling a fixed number per row puts every row on one count. Outside [0.01, 0.99]
    # there is no spread to measure, and nothing to pay for.
    rate = selected / (n * len(calls))
    if not 0.01 <= rate <= 0.99:
        fail(f"{rate:.1%} of the ordinary positions were selected: with (almost) none or all "
             "selected, whether positions are selected independently cannot be measured")
    if shared > rows * 3 // 4:
        fail(f"{shared} of the {rows} rows of {width} ordinary tokens in one call had the same "
             "number selected: select each position independently (a fixed number per row "
             "is another sampler)")


def test_reproducible_with_rng_only(student):
    """the same rng state gives the same output whatever numpy's global state; the rng advances"""
    ids = _batch(60, 16, 128)
    student.seed(1)
    first = _call(student, ids, 77)
    student.seed(2)                              # a different global state, the same rng seed
    again = _call(student, ids, 77)
    if not (np.array_equal(first[0], again[0]) and np.array_equal(first[1], again[1])):
        fail("two calls with generators in the same state gave different outputs: "
             "draw every random number from rng, not from np.random or random")
    # A correct sampler's two independent draws agree at one ordinary position with
    # probability 0.85**2 + 0.15**2 * (0.8**2 + ...) < 0.74, so on these 1,600 ordinary
    # positions everywhere with probability below 0.74 ** 1600 < 1e-200: equal outputs
    # mean that rng was not used (or that a copy of it was).
    other = _call(student, ids, 78)
    if np.array_equal(first[1], other[1]) and np.array_equal(first[0], other[0]):
        fail("generators with different seeds gave the same output: rng is not used")
    rng = student.new("numpy.random.default_rng", 79)
    a, b = _call(student, ids, 0, rng=rng), _call(student, ids, 0, rng=rng)
    if np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]):
        fail("two calls with the same generator gave the same output: draw from rng itself "
             "(not from a copy of it), so that each call gets new random numbers")
