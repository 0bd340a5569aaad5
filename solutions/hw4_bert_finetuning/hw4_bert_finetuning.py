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
# # Homework 4: fine-tuning a tiny BERT
#
# BERT is an *encoder*: a stack of bidirectional self-attention layers that
# turns a sequence of token ids into one vector per position. To use it for
# a sentence-level task (is this review positive? does sentence B follow
# sentence A?) one puts a small linear *head* on the vector of the first
# position, the `[CLS]` token, and trains the whole network on labelled
# examples. That last step is *fine-tuning*.
#
# In this homework you build a BERT-shaped classifier small enough to train
# in a second on a CPU, and the loop that trains it:
#
# 1. `EncoderLayer(h, heads)` and `TinyBertForClassification(...)`: the
#    model (one question, two answer cells);
# 2. `train_classifier(model, ids, labels, epochs=30, lr=1e-3)`: the
#    full-batch training loop.
#
# Every part goes the same way: the idea, the equation, your code, then a
# check you can run. Replace each `...` in the answer cells and keep the
# names and signatures: the autograder calls them by name.
# `grader.check("<name>")` runs a few public checks; many more run after
# you submit.

# %%
import math

import torch
import torch.nn.functional as F
from torch import nn

# %% [markdown]
# ## Part 0: the attention layer (provided)
#
# The model needs homework 1's multi-head self-attention. It is given here,
# ready to use: the same `TinySelfAttn(h, heads)` as in homework 1
# (`qkv = nn.Linear(h, 3h, bias=False)`, `out = nn.Linear(h, h)`, head $i$
# on columns $[i\,h/H, (i+1)\,h/H)$ of $Q$, $K$ and $V$), except that the
# attention itself is PyTorch's fused
# `torch.nn.functional.scaled_dot_product_attention` rather than your own
# function, so that this notebook stands on its own.
#
# Run the cell and do not change it. When the autograder checks your model
# it binds its own copy of exactly this layer to the name `TinySelfAttn`
# first, so your grade for the model depends only on what you write in
# this homework's answer cells.

# %%
# build: paste TinySelfAttn from autograder/hw4_bert_finetuning/provided.py

# %% [markdown]
# ## Part 1: one encoder layer
#
# Think of the sequence as a *residual stream*: a tensor `x` of shape
# `(B, T, h)` that every layer reads and adds to, never replaces. A layer
# has two sub-layers, each writing an update into the stream:
#
# * **self-attention** moves information *between* positions. No mask is
#   passed, so every position sees every other one, before and after it:
#   that is what makes the encoder bidirectional;
# * a **feed-forward network** transforms each position *on its own*: a
#   linear map up to $4h$ features, a GELU, and a linear map back to $h$.
#
# Each sub-layer reads a LayerNorm-ed copy of the stream and adds its
# output back (*pre-norm*):
#
# $$x \leftarrow x + \mathrm{Attn}(\mathrm{LN}_1(x)), \qquad
#   x \leftarrow x + \mathrm{FF}(\mathrm{LN}_2(x)), \qquad
#   \mathrm{FF}(z) = W_2\,\mathrm{GELU}(W_1 z + b_1) + b_2 .$$
#
# Why the additions? The identity path `x + ...` lets gradients reach
# the embeddings unchanged however deep the stack is, and a layer that has
# nothing useful to add can leave the stream almost as it was. Why
# normalise the *input* of each sub-layer rather than the sum? The
# original Transformer and BERT itself do the latter (*post-norm*,
# $x \leftarrow \mathrm{LN}(x + \mathrm{Attn}(x))$); putting the
# normalisation inside the branch keeps the identity path free of it, which
# trains more stably without a learning-rate warm-up and is what GPT-2 and
# most encoders since use. The two are different functions: a post-norm
# layer is a mistake here, not a variant.
#
# GELU, $z\,\Phi(z)$ with $\Phi$ the standard normal CDF, is a smooth
# ReLU: close to 0 for negative inputs, close to $z$ for positive ones,
# but with a small negative dip and a gradient everywhere. `nn.GELU()`
# computes it exactly.

# %% [raw]
# # BEGIN QUESTION
# name: TinyBertForClassification

# %% [markdown]
# **Question 1, first cell.** Write `EncoderLayer(h, heads)`. In
# `__init__` create, in this order (the order fixes which random numbers
# each weight gets, so that a seeded model matches the reference):
#
# * `self.attn = TinySelfAttn(h, heads)`;
# * `self.ff = nn.Sequential(nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h))`;
# * `self.ln1 = nn.LayerNorm(h)` and `self.ln2 = nn.LayerNorm(h)`.
#
# `forward(x)` takes and returns `(B, T, h)` and applies the two pre-norm
# residual updates above, attention first. Never pass a mask.

# %% [raw]
# # BEGIN SOLUTION

# %%
class EncoderLayer(nn.Module):
    """One pre-norm encoder layer: attention, then feed-forward, each added to x."""

    def __init__(self, h, heads):
        super().__init__()
        # BEGIN SOLUTION
        self.attn = TinySelfAttn(h, heads)  # bidirectional: it never gets a mask
        self.ff = nn.Sequential(
            nn.Linear(h, 4 * h),  # W_1, b_1: up to 4h features
            nn.GELU(),
            nn.Linear(4 * h, h),  # W_2, b_2: back to the stream's width
        )
        self.ln1 = nn.LayerNorm(h)  # normalises what the attention reads
        self.ln2 = nn.LayerNorm(h)  # normalises what the feed-forward reads
        # END SOLUTION

    def forward(self, x):
        # BEGIN SOLUTION
        x = x + self.attn(self.ln1(x))  # 1) exchange information between positions, (B, T, h)
        x = x + self.ff(self.ln2(x))  # 2) transform each position separately, (B, T, h)
        return x
        # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [markdown]
# ## Part 2: embeddings in, [CLS] out
#
# The model turns ids into vectors with two lookup tables that are learned
# like any other weight: a **token embedding** (one row per id in the
# vocabulary) and a **position embedding** (one row per position
# $0, \dots, \text{max\_len}-1$). Their sum is the stream's starting value:
#
# $$x_t = E_{\text{tok}}[\mathrm{id}_t] + E_{\text{pos}}[t], \qquad t = 0, \dots, T-1 .$$
#
# Without the position term, attention could not tell "dog bites man" from
# "man bites dog": self-attention treats its input as a *set*, and permuting
# the tokens would only permute the outputs. BERT learns its position table;
# the original Transformer used fixed sinusoids (homework 2).
#
# After the layers, the head reads one vector per sequence: the one at
# position 0. In BERT that position always holds the special `[CLS]` token.
# Nothing about `[CLS]` is special inside the network: because attention
# is bidirectional, the vector at position 0 can gather information from
# the whole sequence, and fine-tuning teaches the layers to put there what
# the head needs. (Here the toy data has no `[CLS]` token; position 0 plays
# its role.)
#
# $$\text{logits} = W_{\text{head}}\, x^{(L)}_0 + b_{\text{head}} \in \mathbb{R}^{n_\text{classes}}$$
#
# With the defaults (`vocab=100, h=32, heads=4, n_layers=2, max_len=16,
# n_classes=2`) the model has **28,994** parameters:
#
# | part | shape | parameters |
# |---|---|---|
# | `tok_emb` | 100 x 32 | 3,200 |
# | `pos_emb` | 16 x 32 | 512 |
# | per layer: `attn.qkv` | 96 x 32, no bias | 3,072 |
# | per layer: `attn.out` | 32 x 32 + 32 | 1,056 |
# | per layer: `ff.0` | 128 x 32 + 128 | 4,224 |
# | per layer: `ff.2` | 32 x 128 + 32 | 4,128 |
# | per layer: `ln1`, `ln2` | 2 x (32 + 32) | 128 |
# | two layers | 2 x 12,608 | 25,216 |
# | `head` | 2 x 32 + 2 | 66 |
# | **total** | | **28,994** |
#
# BERT-base has the same parts at $h = 768$, 12 heads, 12 layers and a
# 30,522-token vocabulary: about 110 million parameters.

# %% [markdown]
# **Question 1, second cell.** Write
# `TinyBertForClassification(vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2)`.
# In `__init__` create, in this order: `self.tok_emb = nn.Embedding(vocab, h)`,
# `self.pos_emb = nn.Embedding(max_len, h)`, `self.layers`, an
# `nn.ModuleList` of `n_layers` `EncoderLayer(h, heads)`, and
# `self.head = nn.Linear(h, n_classes)`. Its `state_dict()` keys are then
# `tok_emb.weight, pos_emb.weight, layers.0.attn.qkv.weight, ...,
# layers.0.ln2.bias, layers.1..., head.weight, head.bias`.
#
# `forward(ids)` takes `ids` of shape `(B, T)` (int64, `T <= max_len`)
# and returns the logits `(B, n_classes)` computed from position 0.
#
# Keep the layers in an `nn.ModuleList` (or `nn.Sequential`), not in a
# Python list: PyTorch only registers, counts, saves and trains modules it
# can see as attributes or inside its own containers.

# %% [raw]
# # BEGIN SOLUTION

# %%
class TinyBertForClassification(nn.Module):
    """Token + position embeddings, n_layers encoder layers, a linear head on [CLS]."""

    def __init__(self, vocab=100, h=32, heads=4, n_layers=2, max_len=16, n_classes=2):
        super().__init__()
        # BEGIN SOLUTION
        self.tok_emb = nn.Embedding(vocab, h)  # one learned row per token id
        self.pos_emb = nn.Embedding(max_len, h)  # one learned row per position
        self.layers = nn.ModuleList(EncoderLayer(h, heads) for _ in range(n_layers))
        self.head = nn.Linear(h, n_classes)  # reads the [CLS] vector
        # END SOLUTION

    def forward(self, ids):
        # BEGIN SOLUTION
        length = ids.shape[1]
        where = torch.arange(length, device=ids.device)  # (T,) positions 0..T-1
        x = self.tok_emb(ids) + self.pos_emb(where)  # (B, T, h); positions broadcast over B
        for layer in self.layers:
            x = layer(x)  # (B, T, h)
        cls = x[:, 0, :]  # (B, h): the vector at position 0
        return self.head(cls)  # (B, n_classes)
        # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_model_logits_shape(TinyBertForClassification, torch):
    model = TinyBertForClassification()
    logits = model(torch.zeros(3, 10, dtype=torch.long))
    assert isinstance(logits, torch.Tensor), "forward should return a tensor of logits"
    assert tuple(logits.shape) == (3, 2), f"logits have shape {tuple(logits.shape)}, not (3, 2)"

# %%
def test_model_parameter_count(TinyBertForClassification):
    n = sum(p.numel() for p in TinyBertForClassification().parameters())
    assert n == 28_994, f"the default model has {n:,} parameters, not 28,994"

# %%
def test_model_state_dict_ends(TinyBertForClassification):
    keys = list(TinyBertForClassification(n_layers=1).state_dict())
    want = ["tok_emb.weight", "pos_emb.weight", "layers.0.attn.qkv.weight"]
    if keys[:3] != want:  # say what is out of place, not only that something is
        missing = [k for k in want[:2] if k not in keys]
        layer = [k for k in keys if k.startswith("layers.0.")]
        assert False, f"the state_dict starts with {keys[:3]}, not {want}: " + (
            f"there is no {' or '.join(missing)} (the embeddings are nn.Embedding modules "
            "named tok_emb and pos_emb)" if missing else
            "make tok_emb, then pos_emb, before anything else" if keys[:2] != want[:2] else
            "no weight is named layers.0.*: the layers must be an nn.ModuleList named "
            "layers, each layer a registered submodule" if not layer else
            f"{keys[2]} comes between pos_emb and the layers: make the layers right after pos_emb"
            if keys[2] != layer[0] else
            f"layers.0's first weight is {layer[0]}: make each layer's attn first, then ff, "
            "ln1 and ln2 (state_dict lists parts in the order they are made)")
    assert keys[-2:] == ["head.weight", "head.bias"], f"the state_dict ends with {keys[-2:]}"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ### Check: where the parameters are, and who sees whom
#
# Group the parameters by the first part of their names and compare with the
# table above. Then the encoder's defining property, seen from the head:
# changing only the *last* token of a sequence changes the logits read at
# position 0. (With a causal mask, as in GPT, it could not.)

# %%
torch.manual_seed(0)
demo = TinyBertForClassification()
groups = {}
for name, p in demo.named_parameters():
    part = ".".join(name.split(".")[:2]) if name.startswith("layers") else name.split(".")[0]
    groups[part] = groups.get(part, 0) + p.numel()
for part, n in groups.items():
    print(f"{part:10s} {n:6,d}")
print(f"{'total':10s} {sum(groups.values()):6,d}")

ids_demo = torch.randint(0, 100, (2, 8))
ids_changed = ids_demo.clone()
ids_changed[:, -1] = (ids_changed[:, -1] + 1) % 100  # another id at the last position only
with torch.no_grad():
    moved = (demo(ids_changed) - demo(ids_demo)).abs().max().item()
print(f"changing the last token moved the [CLS] logits by {moved:.2e}")

# %% [markdown]
# ## Part 3: the fine-tuning loop
#
# Training is the same five steps whatever the model, repeated once per
# epoch; here every epoch uses the whole data set as one batch:
#
# 1. clear the gradients left by the previous step (`zero_grad`; PyTorch
#    *adds* new gradients to old ones otherwise);
# 2. forward: logits for all $N$ sequences;
# 3. the loss: mean cross-entropy, $L = -\frac1N \sum_i \log \mathrm{softmax}(z_i)_{y_i}$;
# 4. backward: $\partial L / \partial \theta$ for every parameter;
# 5. step: Adam moves each parameter using running averages of its
#    gradient and of its squared gradient.
#
# Record each epoch's loss as a Python float (`loss.item()`) *as computed
# in that epoch's forward pass*, that is before the step: the first entry
# is the loss of the untrained model.
#
# Real BERT fine-tuning starts from pretrained weights and uses a small
# learning rate (2e-5 to 5e-5) for a few epochs. Here nothing is
# pretrained, so the model starts from random weights and a larger rate,
# 1e-3, is used: strictly, this is training from scratch with the
# fine-tuning recipe.

# %% [raw]
# # BEGIN QUESTION
# name: train_classifier

# %% [markdown]
# **Question 2.** Write `train_classifier(model, ids, labels, epochs=30, lr=1e-3)`.
# Create `torch.optim.Adam(model.parameters(), lr=lr)` and an
# `nn.CrossEntropyLoss()`, then run `epochs` full-batch epochs of the five
# steps above on `model(ids)` and `labels`. Return the list of the
# `epochs` losses, as floats. Train the model you are given (no copy).

# %% [raw]
# # BEGIN SOLUTION

# %%
def train_classifier(model, ids, labels, epochs=30, lr=1e-3):
    """Full-batch training with Adam and cross-entropy.

    Args:
        model: a module mapping ids (N, T) to logits (N, n_classes); trained in place.
        ids: int64 tensor (N, T).
        labels: int64 tensor (N,) of class indices.
        epochs: number of full-batch steps.
        lr: Adam's learning rate.

    Returns:
        A list of `epochs` floats: the loss of each epoch's forward pass.
    """
    # BEGIN SOLUTION
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss()  # mean over the batch of -log p(true class)
    history = []
    for _ in range(epochs):
        optimizer.zero_grad()  # 1) drop the previous epoch's gradients
        logits = model(ids)  # 2) (N, n_classes)
        loss = criterion(logits, labels)  # 3) a 0-d tensor
        loss.backward()  # 4) gradients of every parameter
        optimizer.step()  # 5) update
        history.append(loss.item())  # this epoch's loss, before its update
    return history
    # END SOLUTION

# %% [raw]
# # END SOLUTION

# %% [raw]
# # BEGIN TESTS

# %%
def test_train_one_float_per_epoch(train_classifier, torch, nn):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 2))
    ids, labels = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), torch.tensor([0, 1, 0])
    losses = train_classifier(model, ids, labels, epochs=4, lr=0.1)
    assert isinstance(losses, list), f"return a list, not a {type(losses).__name__}"
    assert len(losses) == 4, f"epochs=4 gave {len(losses)} losses"
    assert all(isinstance(v, float) for v in losses), "each loss should be a float (loss.item())"

# %%
def test_train_first_loss_before_any_update(train_classifier, torch, nn):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Embedding(10, 4), nn.Flatten(), nn.Linear(12, 2))
    ids, labels = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), torch.tensor([0, 1, 0])
    with torch.no_grad():
        untrained = nn.functional.cross_entropy(model(ids), labels).item()
    losses = train_classifier(model, ids, labels, epochs=5, lr=0.1)
    assert isinstance(losses, list) and len(losses) == 5, \
        f"epochs=5 should give a list of 5 losses, not {len(losses) if isinstance(losses, list) else losses!r}"
    assert all(isinstance(v, (int, float)) for v in losses), "each loss should be a float (loss.item())"
    assert abs(losses[0] - untrained) < 1e-6, \
        f"the first loss should be the untrained model's cross-entropy, {untrained:.4f}, " \
        f"not {losses[0]:.4f}: nn.CrossEntropyLoss on the logits, before the first step"
    assert losses[-1] < losses[0], "the loss did not go down"

# %% [raw]
# # END TESTS

# %% [raw]
# # END QUESTION

# %% [markdown]
# ### Check: the lesson's run
#
# The lesson this homework follows trains the default model on 50 random
# sequences of 10 tokens with random binary labels. The seeds fix
# everything: `torch.manual_seed(42)` right before building the model,
# `torch.manual_seed(99)` right before drawing the ids and then the labels,
# Adam at 1e-3 for 30 epochs. Its losses at epochs 0, 9, 19 and 29 are
# 0.7904, 0.5772, 0.4014 and 0.1703 (recomputed for this homework with
# torch 2.13 on a CPU). Your model and loop should print the same four
# numbers.

# %%
torch.manual_seed(42)
model = TinyBertForClassification()
torch.manual_seed(99)
ids = torch.randint(0, 100, (50, 10))  # (N, T) token ids
labels = torch.randint(0, 2, (50,))  # (N,) random classes
losses = train_classifier(model, ids, labels)

documented = {0: 0.7904, 9: 0.5772, 19: 0.4014, 29: 0.1703}
for epoch, expected in documented.items():
    print(f"epoch {epoch:2d}  loss {losses[epoch]:.4f}  (lesson: {expected:.4f})")
print("final loss < 0.3:", losses[-1] < 0.3)

# %% [markdown]
# Two things in the lesson's own code deserve a warning.
#
# * Its "full program" calls `torch.manual_seed(99)` *before building the
#   model*, not 42, and then draws the data from the same stream. The model
#   gets other initial weights, the data are other sequences, and the trace
#   is not the table's: it runs from 0.8597 to 0.2525. A seed fixes a
#   stream of random numbers, not the meaning of each number; which call
#   consumes them, in which order, is part of the recipe. The next cell
#   draws in that order and computes the first loss, the untrained model's
#   (training on would take as long as the run above).
# * It ends with `print('done — final loss < 0.3: True')`: the `True` is
#   part of the string, printed whatever the loss. (Here it happens to be
#   true.) The cell above computes the comparison instead.
#
# The lesson also calls its toy "identical to HuggingFace
# BertForSequenceClassification". It has the same idea, a head on
# `[CLS]`, but not the same structure: BERT's layers are post-norm, its
# embeddings add a segment embedding and go through a LayerNorm and
# dropout, and its head reads `[CLS]` through a *pooler* (a dense layer
# and tanh) first.

# %%
torch.manual_seed(99)  # the lesson's full program: seed 99 before the model
model_b = TinyBertForClassification()
ids_b = torch.randint(0, 100, (50, 10))
labels_b = torch.randint(0, 2, (50,))
with torch.no_grad():  # epoch 0's loss: the model before any step
    first_b = nn.functional.cross_entropy(model_b(ids_b), labels_b).item()
print(f"seeded 99 before the model: the first loss is {first_b:.4f}, not {losses[0]:.4f}")

# %% [markdown]
# ### What did it learn?
#
# The labels are coin flips, unrelated to the tokens. A falling loss
# therefore cannot mean the model found a rule: it memorised 50 sequences.
# Accuracy makes that visible: near 100% on the training sequences, about
# 50% (chance) on fresh ones drawn the same way.

# %%
g = torch.Generator().manual_seed(1)
fresh_ids = torch.randint(0, 100, (500, 10), generator=g)
fresh_labels = torch.randint(0, 2, (500,), generator=g)
with torch.no_grad():
    train_acc = (model(ids).argmax(dim=-1) == labels).float().mean().item()
    fresh_acc = (model(fresh_ids).argmax(dim=-1) == fresh_labels).float().mean().item()
print(f"accuracy on the 50 training sequences: {train_acc:.0%}, on 500 fresh ones: {fresh_acc:.0%}")

# %% [markdown]
# Pretraining is what changes this picture: a BERT that has read a large
# corpus starts fine-tuning with layers that already represent words in
# context, so a few thousand labelled examples are enough to learn a
# rule that carries over to new sentences. Run the cell below to check
# everything, then export and submit.
