# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [raw]
# # ASSIGNMENT CONFIG
# init_cell: true
# check_all_cell: true
# export_cell:
#   pdf: false
#   instructions: "Run this cell to make a zip of your notebook, then upload the zip (or the .ipynb) to Gradescope."
# generate: false
# run_tests: false
# tests:
#   files: false
#   ok_format: false

# %% [markdown]
# # Homework 3: pretraining BERT
#
# Homework 1 showed that an encoder differs from a decoder by its mask: in
# BERT every token may attend to every other token, left and right. That
# freedom has a price. A causal model is trained by predicting the next
# token at every position, but a bidirectional model that tries the same
# would simply *look* at the token it is asked to predict. BERT needs
# another exercise, and it uses two:
#
# * **Masked language modelling (MLM):** hide some tokens of the input and
#   ask the model to recover them from what is left on both sides.
# * **Next-sentence prediction (NSP):** show two text segments and ask
#   whether the second really followed the first.
#
# You will write the three pieces of data preparation and loss that these
# objectives need:
#
# 1. `mask_tokens(...)`: the random corruption of a batch, with its labels;
# 2. `mlm_loss(logits, labels)`: the cross entropy over the hidden tokens only;
# 3. `nsp_pair(tokens_a, tokens_b, cls_id, sep_id)`: the input layout of a sentence pair.
#
# Then you will read the record of a tiny pretraining run and recompute its
# numbers. As before, each part goes: the idea, the equation, your code, a
# small check. Replace each `...` in the three answer cells and keep the
# names and signatures: the autograder calls them by name.
# `grader.check("<name>")` runs a few public checks; many more run after
# you submit.

# %%
import numpy as np
import torch
import torch.nn.functional as F

# %% [markdown]
# ## Part 1: masked language modelling
#
# Take the sentence *"she poured the [MASK] into her cup"*. The words on the
# left ("poured the") say a noun follows; the words on the right ("into her
# cup") say it is a drink. Neither side alone is enough, and a model that
# reads both sides can do what a left-to-right model cannot. MLM turns
# this into a training signal that needs no annotation: corrupt a sentence,
# keep the original as the answer key, and train the model to undo the
# corruption.
#
# **Which tokens?** Each ordinary token is chosen as a *prediction target*
# independently with probability 15%. Special tokens (`[CLS]`, `[SEP]`,
# `[PAD]`, `[MASK]` itself) are never chosen: they carry no content to
# recover. The rate is a compromise. Every target is a training signal, so
# more targets mean more learning per sequence; but every hidden token also
# removes context that the other predictions need. The BERT paper settled on
# 15%; later studies revisited the number (larger models cope with higher
# rates), so read it as a sound default rather than a law.
#
# **What happens to a target?** Of the chosen positions,
#
# * 80% are replaced by `[MASK]`,
# * 10% are replaced by a random ordinary token,
# * 10% are left unchanged,
#
# and in all three cases the model must predict the original token there.
# Why not always `[MASK]`? Because `[MASK]` never occurs when the model is
# later fine-tuned and used: real inputs contain only real tokens. A model
# that only ever had to predict at `[MASK]` positions could learn that a
# visible word is always correct and needs no further thought; its
# representations of ordinary words, the only ones it will see after
# pretraining, would not be shaped by the task. Leaving 10% of the targets
# unchanged makes the model predict (and so represent) tokens it can see;
# replacing 10% by a random token means no visible token can be trusted
# blindly, so every position must be checked against its context.
#
# Two consequences in numbers. First, `[MASK]` appears in only
# $0.15 \times 0.8 = 12\%$ of the input tokens. Second, MLM learns from few
# positions: in a sequence of 512 tokens about $0.15 \times 512 \approx 77$
# are targets, while a causal language model predicts a token at 511
# positions (every one but the last), about 6.6 times as many.

# %%
n_tokens = 512
bert_targets = round(0.15 * n_tokens)  # about 15% of the positions are predicted
gpt_targets = n_tokens - 1  # a causal model predicts the next token everywhere but the end
print(f"[MASK] visible in {0.15 * 0.8:.0%} of the input tokens")
print(f"targets per {n_tokens}-token sequence: MLM about {bert_targets}, causal LM {gpt_targets} "
      f"({gpt_targets / bert_targets:.1f} times as many)")

# %% [markdown]
# ### The corruption, written out
#
# For an input $x_1, \dots, x_n$ with special-token set $\mathcal{S}$ and
# ordinary ids $\mathcal{O} = \{0, \dots, V-1\} \setminus \mathcal{S}$,
# draw for each position $i$ with $x_i \notin \mathcal{S}$
#
# $$s_i \sim \mathrm{Bernoulli}(p_{\text{select}}), \qquad
# \tilde x_i = \begin{cases}
# \texttt{[MASK]} & \text{with probability } p_{\text{mask}} \\
# r_i \sim \mathrm{Uniform}(\mathcal{O}) & \text{with probability } p_{\text{random}} \\
# x_i & \text{otherwise}
# \end{cases} \quad \text{if } s_i = 1,$$
#
# and $\tilde x_i = x_i$ when $s_i = 0$ or $x_i \in \mathcal{S}$. The labels
# are $y_i = x_i$ where $s_i = 1$ and $y_i = -100$ everywhere else. The
# value $-100$ is the *ignore index*: it is the default `ignore_index` of
# PyTorch's `F.cross_entropy`, which skips those positions (Part 2).
#
# Note that a random replacement may, with probability $1/|\mathcal{O}|$,
# draw the original token itself; that is part of the recipe, and the
# position is still a target.
#
# **Randomness.** Your function receives `rng`, a `numpy.random.Generator`,
# and must draw every random number from it (`rng.random`, `rng.integers`,
# `rng.choice`, ...), never from `np.random.*` or `random`. Two generators
# in the same state must then give the same output, which makes an
# experiment repeatable; and a generator advances with each call, so every
# epoch gets a fresh corruption of the same text. The autograder checks
# your function by its *distribution* (the proportions above, measured over
# many thousand tokens) and its rules, not by comparing one draw with a
# reference: draw your numbers in any order you like.
#
# **Two samplers that are easy to confuse.** The recipe above decides for
# each position separately, so the number of targets varies from sequence
# to sequence (it follows a binomial distribution). Another sampler picks
# *exactly* $\mathrm{round}(0.15\,n)$ positions without replacement. Some
# lesson notes state that with `np.random.default_rng(42)` "a 20-token
# sequence masks positions [1, 13, 14]": that is true of the fixed-count
# sampler `np.sort(rng.choice(20, 3, replace=False))`, not of the
# per-position sampler you will write, which with the same seed selects
# other positions (and need not select three):

# %%
fixed_count = np.sort(np.random.default_rng(42).choice(20, 3, replace=False))
per_position = np.flatnonzero(np.random.default_rng(42).random(20) < 0.15)
print("exactly 3 of 20 (rng.choice):        ", fixed_count.tolist())
print("each position with p = 0.15 (random):", per_position.tolist())

# %% [raw]
# # BEGIN QUESTION
# name: mask_tokens

# %% [markdown]
# **Question 1.** Write `mask_tokens(input_ids, vocab_size, mask_id,
# special_ids, rng, select_prob=0.15, mask_prob=0.8, random_prob=0.1)`.
#
# * `input_ids` is an integer `np.ndarray` of any shape (one sequence, a
#   batch, ...); `special_ids` a list of ids that are never selected (it
#   normally contains `mask_id`); `rng` a `np.random.Generator`, your only
#   source of randomness.
# * Each position whose id is not in `special_ids` is selected
#   independently with probability `select_prob`. A selected position
#   becomes `mask_id` with probability `mask_prob`, a token drawn uniformly
#   from the ids in `[0, vocab_size)` that are not in `special_ids` with
#   probability `random_prob`, and keeps its id otherwise.
# * Return `(corrupted, labels)`: two **new** `int64` arrays of the input's
#   shape; `labels` holds the original id at the selected positions and
#   `-100` everywhere else. Do not modify `input_ids`.
#
# Vectorised numpy or a loop over the tokens are both fine.

# %% [raw]
# # BEGIN SOLUTION

# %%
def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,
                select_prob=0.15, mask_prob=0.8, random_prob=0.1):
    """BERT's masked-language-model corruption of a batch of token ids.

    Args:
        input_ids: integer array of any shape.
        vocab_size: ids run over [0, vocab_size).
        mask_id: the id of [MASK].
        special_ids: ids that are never selected nor drawn as random tokens.
        rng: a numpy.random.Generator, the only source of randomness.
        select_prob: probability that an ordinary position becomes a target.
        mask_prob: probability that a target is replaced by [MASK].
        random_prob: probability that a target is replaced by a random ordinary id.

    Returns:
        (corrupted, labels): new int64 arrays of the input's shape; labels hold
        the original id at the targets and -100 elsewhere.
    """
    # BEGIN SOLUTION
    ids = np.asarray(input_ids)
    specials = np.asarray(list(special_ids), dtype=np.int64)
    # 1) targets: each ordinary position independently with select_prob
    selected = (rng.random(ids.shape) < select_prob) & ~np.isin(ids, specials)
    # 2) one uniform number per position splits the targets: [MASK] | random | unchanged
    u = rng.random(ids.shape)
    to_mask = selected & (u < mask_prob)
    to_random = selected & (u >= mask_prob) & (u < mask_prob + random_prob)
    # 3) random replacements, uniform over the ordinary ids
    ordinary = np.setdiff1d(np.arange(vocab_size), specials)
    random_ids = ordinary[rng.integers(0, len(ordinary), size=ids.shape)]
    corrupted = ids.astype(np.int64)  # astype copies: input_ids stays as it was
    corrupted[to_mask] = mask_id
    corrupted[to_random] = random_ids[to_random]
    labels = np.where(selected, ids, -100).astype(np.int64)
    return corrupted, labels
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_mask_tokens_types_and_shapes(mask_tokens, np):
    ids = np.array([[1, 5, 6, 7, 2], [1, 8, 9, 2, 0]])
    result = mask_tokens(ids, 12, 3, [0, 1, 2, 3], np.random.default_rng(0))
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (corrupted, labels)"
    for name, arr in zip(("corrupted", "labels"), result):
        assert isinstance(arr, np.ndarray), f"{name} should be a numpy array"
        assert arr.shape == ids.shape, f"{name} has shape {arr.shape}, not {ids.shape}"
        assert arr.dtype == np.int64, f"{name} has dtype {arr.dtype}, not int64"

# %%
def test_mask_tokens_labels_and_specials(mask_tokens, np):
    ids = np.tile(np.array([1, 4, 5, 6, 7, 8, 9, 10, 11, 2, 0, 0]), (50, 1))
    given = ids.copy()
    result = mask_tokens(given, 12, 3, [0, 1, 2, 3], np.random.default_rng(1), select_prob=0.5)
    assert (given == ids).all(), "mask_tokens modified its input_ids: corrupt a copy"
    assert isinstance(result, tuple) and len(result) == 2 \
        and all(isinstance(r, np.ndarray) and r.shape == ids.shape for r in result), \
        "return the pair (corrupted, labels) of numpy arrays of the input's shape"
    corrupted, labels = result
    special = np.isin(ids, [0, 1, 2, 3])
    assert ((labels == -100) | (labels == ids)).all(), "labels must be -100 or the original id"
    assert (labels[special] == -100).all(), "special tokens must never be selected"
    assert (corrupted[labels == -100] == ids[labels == -100]).all(), \
        "positions that are not targets (label -100) must keep their id"

# %%
def test_mask_tokens_same_rng_state_same_output(mask_tokens, np):
    ids = np.arange(4, 40).reshape(3, 12)
    first = mask_tokens(ids.copy(), 40, 3, [0, 1, 2, 3], np.random.default_rng(7))
    again = mask_tokens(ids.copy(), 40, 3, [0, 1, 2, 3], np.random.default_rng(7))
    for result in (first, again):
        assert isinstance(result, tuple) and len(result) == 2 \
            and all(isinstance(r, np.ndarray) and r.shape == ids.shape for r in result), \
            "return the pair (corrupted, labels) of numpy arrays of the input's shape"
    assert all((a == b).all() for a, b in zip(first, again)), \
        "generators in the same state must give the same output: use only rng"

# %%
def test_mask_tokens_select_prob_zero(mask_tokens, np):
    ids = np.array([1, 4, 5, 6, 2])
    result = mask_tokens(ids, 12, 3, [0, 1, 2, 3], np.random.default_rng(0), select_prob=0.0)
    assert isinstance(result, tuple) and len(result) == 2 \
        and all(isinstance(r, np.ndarray) and r.shape == ids.shape for r in result), \
        "return the pair (corrupted, labels) of numpy arrays of the input's shape"
    corrupted, labels = result
    assert (corrupted == ids).all(), "with select_prob=0.0 nothing is selected: corrupted must equal input_ids"
    assert (labels == -100).all(), "with select_prob=0.0 nothing is selected: every label must be -100"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ### Check: the proportions
#
# Corrupt 100,000 random tokens from a vocabulary of 1,000 (ids 0 to 3 are
# special) and count. Each share should be close to its probability: about
# 15% selected, of those about 80 / 10 / 10, and `[MASK]` in about 12% of
# the input, counted over *all* tokens. (The "unchanged" share includes the
# rare random replacement that drew the original token.) The last line
# should read 0: a token that is not a target must never change. The most
# common slip, applying 80/10/10 to every token instead of to the targets
# only, shows there, and as `[MASK]` in about 80% of the input.

# %%
demo_rng = np.random.default_rng(2024)
demo_ids = demo_rng.integers(4, 1000, size=(200, 500))  # ordinary ids only
demo_corrupted, demo_labels = mask_tokens(demo_ids, 1000, 3, [0, 1, 2, 3], demo_rng)
chosen = demo_labels != -100
masked = chosen & (demo_corrupted == 3)
kept = chosen & (demo_corrupted == demo_ids)
print(f"selected: {chosen.mean():.4f}")
print(f"of the selected: [MASK] {masked.sum() / chosen.sum():.3f}, "
      f"random {(chosen & ~masked & ~kept).sum() / chosen.sum():.3f}, "
      f"unchanged {kept.sum() / chosen.sum():.3f}")
print(f"[MASK] visible in {(demo_corrupted == 3).mean():.4f} of the input tokens")
print(f"tokens changed without being targets: {(~chosen & (demo_corrupted != demo_ids)).sum()}")

# %% [markdown]
# How close is "close"? The number of selected tokens among $n$ is
# binomial, with standard deviation $\sqrt{n \cdot 0.15 \cdot 0.85}$, about
# 113 tokens (0.11 percentage points) for $n = 100{,}000$. A share that
# misses 15% by a full percentage point is therefore not bad luck but a
# bug. The autograder's statistical checks are built the same way, with
# bounds a correct function exceeds with probability below one in a million.

# %% [markdown]
# ## Part 2: the loss counts the targets only
#
# The model reads the corrupted sequence and produces, at every position
# $i$, logits $z_i \in \mathbb{R}^V$ over the vocabulary. The MLM loss is
# the cross entropy at the targets $T = \{ i : y_i \ne -100 \}$, averaged
# over the targets:
#
# $$\mathcal{L}_{\text{MLM}} = \frac{1}{|T|} \sum_{i \in T} -\log \mathrm{softmax}(z_i)_{y_i}.$$
#
# Why must the other positions not count? At a position that was not
# selected the model sees the correct token in its input: "predicting" it
# is copying, which teaches nothing and would fill the loss (and the
# gradient) with an easy task that has nothing to do with language
# understanding. It would also make the loss depend on how many positions
# happened to be selected. `F.cross_entropy(..., ignore_index=-100)`
# skips the positions labelled -100 and averages over the others.
#
# One edge case matters in practice: a batch of short sequences may have
# **no** target at all. With 10 ordinary tokens and $p = 0.15$ that happens
# with probability $0.85^{10} \approx 0.20$. The mean over an empty set is
# $0/0$, and PyTorch returns `nan`, which poisons every weight it touches
# in the next optimiser step:

# %%
logits_demo = torch.randn(2, 5, 10)  # (batch, tokens, vocabulary)
nothing = torch.full((2, 5), -100)  # no target anywhere
print("F.cross_entropy with no target:",
      F.cross_entropy(logits_demo.reshape(-1, 10), nothing.reshape(-1), ignore_index=-100))
print("probability that 10 ordinary tokens give no target:", round(0.85 ** 10, 3))

# %% [raw]
# # BEGIN QUESTION
# name: mlm_loss

# %% [markdown]
# **Question 2.** Write `mlm_loss(logits, labels)`. `logits` has shape
# `(..., V)` and `labels` the shape `(...)` with `-100` at the ignored
# positions. Return the mean cross entropy over the other positions (the
# same value as `F.cross_entropy` with `ignore_index=-100`) as a 0-d tensor
# that gradients can flow through (you will call `.backward()` on it). When
# no position is selected, return a 0-d tensor equal to 0.0 (not `nan`, and
# not the Python float `0.0`): `logits.sum() * 0.0` is one, and it even keeps
# the graph. It must stay finite for logits in the thousands.

# %% [raw]
# # BEGIN SOLUTION

# %%
def mlm_loss(logits, labels):
    """Mean cross entropy over the positions whose label is not -100.

    Args:
        logits: (..., V) scores over the vocabulary.
        labels: (...) original ids at the targets, -100 elsewhere.

    Returns:
        A 0-d tensor; 0.0 when no position is a target.
    """
    # BEGIN SOLUTION
    vocab = logits.shape[-1]
    flat_logits = logits.reshape(-1, vocab)  # (N, V)
    flat_labels = labels.reshape(-1)  # (N,)
    total = F.cross_entropy(flat_logits, flat_labels, ignore_index=-100, reduction="sum")
    count = (flat_labels != -100).sum()
    return total / count.clamp(min=1)  # 0 / 1 = 0.0 when there is no target
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_mlm_loss_is_scalar_tensor(mlm_loss, torch):
    try:
        loss = mlm_loss(torch.zeros(2, 3, 5), torch.tensor([[1, -100, 2], [-100, -100, 4]]))
    except RuntimeError as exc:
        raise AssertionError(f"logits of shape (2, 3, 5) and labels (2, 3) raised RuntimeError "
                             f"({exc}): mlm_loss must take any leading dimensions") from exc
    assert isinstance(loss, torch.Tensor), "return a torch.Tensor"
    assert loss.dim() == 0, f"return a 0-d tensor, not shape {tuple(loss.shape)}"

# %%
def test_mlm_loss_uniform_logits(mlm_loss, torch):
    try:
        loss = mlm_loss(torch.zeros(2, 3, 5), torch.tensor([[1, -100, 2], [-100, -100, 4]]))
    except RuntimeError as exc:
        raise AssertionError(f"logits of shape (2, 3, 5) and labels (2, 3) raised RuntimeError "
                             f"({exc}): mlm_loss must take any leading dimensions") from exc
    assert isinstance(loss, torch.Tensor) and loss.dim() == 0, \
        f"return a 0-d tensor, not {type(loss).__name__}"
    assert torch.isclose(loss, torch.log(torch.tensor(5.0))), \
        f"with equal logits over 5 tokens every target costs log(5), and so does the mean over " \
        f"the 3 targets (labels -100 do not count), not {loss.item():.4g}"

# %%
def test_mlm_loss_no_target_is_zero(mlm_loss, torch):
    loss = mlm_loss(torch.randn(2, 3, 5), torch.full((2, 3), -100))
    assert isinstance(loss, torch.Tensor) and loss.dim() == 0, \
        f"no target must give a 0-d tensor equal to 0.0, not {type(loss).__name__}"
    assert not torch.isnan(loss), "no target must give a 0-d tensor equal to 0.0, not nan"
    assert loss.item() == 0.0, \
        "no target (every label -100) must give a 0-d tensor equal to 0.0: labels -100 must not count"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ### Check: only the targets matter
#
# Change the logits at the ignored positions as wildly as you like: the
# loss must not move. Change them at one target and it does.

# %%
g = torch.Generator().manual_seed(0)
logits_check = torch.randn(2, 6, 10, generator=g)
labels_check = torch.full((2, 6), -100)
labels_check[0, 2], labels_check[1, 4] = 7, 1  # two targets
before = mlm_loss(logits_check, labels_check)
wild = logits_check.clone()
wild[labels_check == -100] = 1000.0 * torch.randn(10, 10, generator=g)  # 10 ignored positions
print("loss:", round(before.item(), 4),
      "| after changing the ignored logits:", round(mlm_loss(wild, labels_check).item(), 4))
wild[0, 2, 7] += 3.0  # make target 7 at position (0, 2) more likely
print("after raising the correct logit at one target:", round(mlm_loss(wild, labels_check).item(), 4))

# %% [markdown]
# ## Part 3: sentence pairs
#
# Many tasks BERT was built for compare two pieces of text: does this
# sentence answer that question, does this one follow from that one? BERT
# therefore reads pairs, packed into one sequence
#
# $$\texttt{[CLS]}\ A\ \texttt{[SEP]}\ B\ \texttt{[SEP]}$$
#
# with a *segment id* per position: 0 for `[CLS]`, the tokens of $A$ and
# the first `[SEP]`; 1 for the tokens of $B$ and the final `[SEP]`. A
# learned segment embedding (one vector for segment 0, one for segment 1)
# is added to each token's word and position embeddings, so that every
# layer knows which side of the pair a token came from. The output at
# `[CLS]`, which sits at position 0 in every input, serves as a summary of
# the whole sequence.
#
# **Next-sentence prediction.** The second pretraining task builds pairs
# from a corpus: half the time $B$ is the sentence that really follows $A$
# (label *IsNext*), half the time a sentence taken at random from elsewhere
# (*NotNext*). A two-way classifier on the `[CLS]` output predicts the
# label, and its cross entropy is added to the MLM loss. The hope was to
# teach relations *between* sentences, which MLM alone, working inside
# the sequence, does not target.
#
# **Why later work dropped it.** RoBERTa (2019) retrained BERT with more
# care and found that removing NSP, and filling each input with contiguous
# text instead, matched or improved the results on downstream tasks. A
# common explanation is that the task is too easy: a random $B$ usually
# comes from another document, so a topic mismatch gives the answer away
# without any reasoning about coherence. ALBERT kept a pair task but made
# it harder (are two consecutive segments in the right order?). You should
# know both facts: NSP is part of the original BERT recipe, and it is not
# needed.

# %% [raw]
# # BEGIN QUESTION
# name: nsp_pair

# %% [markdown]
# **Question 3.** Write `nsp_pair(tokens_a, tokens_b, cls_id, sep_id)`. The
# first two arguments are lists of ints (either may be empty). Return
# `(input_ids, segment_ids)`, two lists: `[cls_id] + A + [sep_id] + B +
# [sep_id]`, and 0 for `[CLS]`, A and the first `[SEP]`, 1 for B and the
# last `[SEP]`. Do not modify the lists you are given.

# %% [raw]
# # BEGIN SOLUTION

# %%
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    """[CLS] A [SEP] B [SEP] and its segment ids (0 up to the first [SEP], then 1).

    Args:
        tokens_a: ids of the first segment.
        tokens_b: ids of the second segment.
        cls_id: the id of [CLS].
        sep_id: the id of [SEP].

    Returns:
        (input_ids, segment_ids), two lists of ints of equal length.
    """
    # BEGIN SOLUTION
    first = [cls_id, *tokens_a, sep_id]  # segment 0
    second = [*tokens_b, sep_id]  # segment 1
    return first + second, [0] * len(first) + [1] * len(second)
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_nsp_pair_small(nsp_pair):
    result = nsp_pair([4, 5], [6], 1, 2)
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (input_ids, segment_ids)"
    ids, seg = result
    assert isinstance(ids, list) and isinstance(seg, list), \
        f"return two lists, not {type(ids).__name__} and {type(seg).__name__}"
    assert list(ids) == [1, 4, 5, 2, 6, 2], \
        f"input_ids is {ids}, not [1, 4, 5, 2, 6, 2]: [CLS] a [SEP] b [SEP]"
    assert list(seg) == [0, 0, 0, 0, 1, 1], \
        f"segment_ids is {seg}, not [0, 0, 0, 0, 1, 1]: 0 up to and including the first [SEP], 1 after it"

# %%
def test_nsp_pair_lengths(nsp_pair):
    result = nsp_pair([7, 8, 9], [10, 11], 101, 102)
    assert isinstance(result, tuple) and len(result) == 2, "return the pair (input_ids, segment_ids)"
    ids, seg = result
    assert isinstance(ids, list) and isinstance(seg, list), "return two lists"
    assert len(ids) == len(seg) == 8, \
        f"input_ids has {len(ids)} ids and segment_ids {len(seg)}, not 8: " \
        "[CLS] + 3 + [SEP] + 2 + [SEP], one segment id per token"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ## Part 4: reading a pretraining record
#
# A published teaching example, the *TinyBERT pretraining card*, records a
# forward pass of an untrained miniature BERT (vocabulary 16, width 8, one
# encoder layer of two heads, sequences of 6 tokens) on synthetic ids, with
# `[CLS] = 1`, `[SEP] = 2` and `[MASK] = 3`. Its heads are the two of the
# original recipe: a masked-token head over the 16 ids and a two-way
# IsNext / NotNext head on `[CLS]`. Reading such a record critically is a
# skill: which numbers follow from which? Here is its first case, "mask one
# token in segment A":
#
# | | |
# |---|---|
# | original ids | `[1, 4, 5, 2, 6, 2]` |
# | corrupted ids | `[1, 4, 3, 2, 6, 2]` |
# | segments | A A A A B B |
# | targets | position 2 only |
# | predicted probabilities at position 2 | 16 values; the one for id 5 is 0.0607 |
# | IsNext / NotNext probabilities | 0.4712 / 0.5288 |
# | masked-token cross entropy | 2.8020 |
# | sentence-pair cross entropy | 0.7525 |
# | combined pretraining objective | 3.5544 |
#
# Note first that the card corrupts every target with `[MASK]` (it says so
# itself): it isolates the loss and does not run the 80/10/10 sampler of
# Part 1. The layout is the one of Part 3, `nsp_pair([4, 5], [6], 1, 2)`.
#
# **Reading.** With a single target, the masked-token cross entropy is
# $-\log$ of the probability given to the original id, 5, at position 2:
# $-\log 0.06069 = 2.8020$. The pair label of this case is *IsNext*, so the
# sentence-pair cross entropy is $-\log 0.4712 = 0.7525$. The combined
# objective is the plain sum, $2.8020 + 0.7525 = 3.5544$: BERT adds the two
# losses with equal weight. Recompute the MLM part with your own `mlm_loss`,
# feeding it the recorded probabilities as logits (the softmax of
# $\log p$ is $p$ again):

# %%
probs_at_2 = torch.tensor([
    0.0005717056421297077, 0.7849036643765994, 0.00014382322697756075, 0.003132656902926941,
    0.00013850389365066532, 0.06069144303810712, 0.0003843040038532849, 0.00014232709941134925,
    0.00237814889057363, 0.11143567945665872, 0.00005625725974555662, 0.0007285342397772369,
    0.004732973000207605, 0.002439099928727781, 0.027591600521638622, 0.0005292785190145894])
card_logits = torch.zeros(1, 6, 16)  # (batch, tokens, vocabulary); only position 2 counts
card_logits[0, 2] = probs_at_2.log()
card_labels = torch.tensor([[-100, -100, 5, -100, -100, -100]])
mlm_part = mlm_loss(card_logits, card_labels)
nsp_part = F.cross_entropy(torch.tensor([[0.4712098489178174, 0.5287901510821825]]).log(),
                           torch.tensor([0]))  # label 0 = IsNext
print(f"masked-token CE {mlm_part.item():.4f} + sentence-pair CE {nsp_part.item():.4f} "
      f"= {(mlm_part + nsp_part).item():.4f}")

# %% [markdown]
# Two more cases of the same card, to read on your own:
#
# * **"Same tokens with a negative sentence-pair label."** Identical input
#   and identical probabilities, but the label is *NotNext*. The MLM part is
#   unchanged (2.8020), the pair part becomes $-\log 0.5288 = 0.6372$, and
#   the combined objective $3.4391$. Only the label changed, so only one
#   term moved.
# * **"Mask a token in each segment."** Positions 2 (id 5) and 4 (id 6) are
#   both `[MASK]`. The card shows the probabilities at the *first* target
#   only, where id 5 gets 0.0557 ($-\log = 2.8872$), and records a
#   masked-token cross entropy of 3.7182. That number is the mean over the
#   two targets, so the second target must cost
#   $2 \times 3.7182 - 2.8872 = 4.5492$, that is, the model gave id 6 a
#   probability of about $e^{-4.5492} \approx 0.011$ at position 4. The
#   record never prints that probability; its definition of the loss lets
#   you recover it. (Had the loss been a sum over the targets, the recorded
#   value would have been $2.8872 + 4.5492 = 7.4364$.)
#
# You have now prepared the data and the losses of BERT's pretraining.
# Run the cell below to check everything, then export and submit.
