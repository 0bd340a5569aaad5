"""hw4_bert_finetuning: does the reference reproduce the lesson's figures and
agree with torch's own modules? Do the demo submissions grade as described?
(tests/build/test_build.py checks that they are current. Collected by pytest from
tests/; the corpus harness reads only the correct/ and buggy/ folders next to
this file.)"""
from __future__ import annotations

import pytest
import torch
from torch import nn

from autograder import paths
from autograder.engine.numerics import one_thread_for_references
from autograder.hw4_bert_finetuning import common
from autograder.hw4_bert_finetuning import reference as ref


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    """Tiny ops: two intra-op threads on a busy machine are 10x slower than one
    (torch on one thread for the whole process, as every grader sets it)."""
    one_thread_for_references()


def lesson_run(model_seed_first: bool):
    """The lesson's recipe; model_seed_first=False is its "full program" (seed 99 only)."""
    torch.manual_seed(42 if model_seed_first else 99)
    model = ref.TinyBertForClassification()
    if model_seed_first:
        torch.manual_seed(99)
    ids = torch.randint(0, 100, (50, 10))
    labels = torch.randint(0, 2, (50,))
    return model, ref.train_classifier(model, ids, labels)


def test_parameter_count_and_breakdown():
    """28,994 parameters: tok_emb 3,200, pos_emb 512, 12,608 per layer, head 66."""
    model = ref.TinyBertForClassification()
    parts: dict[str, int] = {}
    for name, p in model.named_parameters():
        key = ".".join(name.split(".")[:2]) if name.startswith("layers") else name.split(".")[0]
        parts[key] = parts.get(key, 0) + p.numel()
    assert parts == {"tok_emb": 3200, "pos_emb": 512, "layers.0": 12608, "layers.1": 12608,
                     "head": 66}
    assert sum(parts.values()) == 28_994


def test_documented_trace():
    """Seed 42, build, seed 99, data: 0.7904, 0.5772, 0.4014, 0.1703 at epochs 0, 9, 19, 29."""
    _, losses = lesson_run(model_seed_first=True)
    assert len(losses) == 30
    assert [round(losses[i], 4) for i in (0, 9, 19, 29)] == [0.7904, 0.5772, 0.4014, 0.1703]


def test_the_lessons_full_program_gives_another_trace():
    """Seeding 99 before the model (the lesson's full program) gives 0.8597 -> 0.2525."""
    _, losses = lesson_run(model_seed_first=False)
    assert (round(losses[0], 4), round(losses[-1], 4)) == (0.8597, 0.2525)


def test_grader_data_and_trace_equal_the_lessons():
    """The hidden tests' generator-drawn data and cached trace are the lesson's."""
    torch.manual_seed(99)
    ids, labels = torch.randint(0, 100, (50, 10)), torch.randint(0, 2, (50,))
    g_ids, g_labels = common.documented_data()
    assert torch.equal(ids, g_ids) and torch.equal(labels, g_labels)
    _, losses = lesson_run(model_seed_first=True)
    assert list(common.documented_trace()) == losses


def test_attention_matches_torch_multihead_attention():
    """TinySelfAttn equals nn.MultiheadAttention with the same weights (zero in-projection bias)."""
    torch.manual_seed(0)
    mine = ref.TinySelfAttn(32, 4)
    theirs = nn.MultiheadAttention(32, 4, batch_first=True)
    with torch.no_grad():
        theirs.in_proj_weight.copy_(mine.qkv.weight)
        theirs.in_proj_bias.zero_()
        theirs.out_proj.weight.copy_(mine.out.weight)
        theirs.out_proj.bias.copy_(mine.out.bias)
        x = torch.randn(3, 7, 32)
        assert torch.allclose(mine(x), theirs(x, x, x, need_weights=False)[0], atol=1e-5)


def test_layer_matches_torch_pre_norm_encoder_layer():
    """EncoderLayer equals nn.TransformerEncoderLayer(norm_first=True, GELU, no dropout)."""
    torch.manual_seed(1)
    mine = ref.EncoderLayer(32, 4)
    theirs = nn.TransformerEncoderLayer(32, 4, dim_feedforward=128, dropout=0.0,
                                        activation="gelu", batch_first=True, norm_first=True)
    with torch.no_grad():
        theirs.self_attn.in_proj_weight.copy_(mine.attn.qkv.weight)
        theirs.self_attn.in_proj_bias.zero_()
        theirs.self_attn.out_proj.weight.copy_(mine.attn.out.weight)
        theirs.self_attn.out_proj.bias.copy_(mine.attn.out.bias)
        for a, b in ((theirs.linear1, mine.ff[0]), (theirs.linear2, mine.ff[2]),
                     (theirs.norm1, mine.ln1), (theirs.norm2, mine.ln2)):
            a.weight.copy_(b.weight)
            a.bias.copy_(b.bias)
        theirs.eval()  # the fast path and the slow path must both agree; eval allows either
        x = torch.randn(2, 9, 32)
        assert torch.allclose(mine(x), theirs(x), atol=1e-5)


def test_state_dict_keys_follow_the_contract():
    keys = list(ref.TinyBertForClassification(n_layers=1).state_dict())
    assert keys == ["tok_emb.weight", "pos_emb.weight", "layers.0.attn.qkv.weight",
                    "layers.0.attn.out.weight", "layers.0.attn.out.bias", "layers.0.ff.0.weight",
                    "layers.0.ff.0.bias", "layers.0.ff.2.weight", "layers.0.ff.2.bias",
                    "layers.0.ln1.weight", "layers.0.ln1.bias", "layers.0.ln2.weight",
                    "layers.0.ln2.bias", "head.weight", "head.bias"]


def test_tolerances_separate_variants_from_mistakes():
    """The trace tolerance admits the tanh GELU and rejects AdamW's weight decay."""
    def trace(act=nn.GELU, optimizer=torch.optim.Adam):
        torch.manual_seed(42)
        model = ref.TinyBertForClassification()
        for layer in model.layers:
            layer.ff[1] = act()
        ids, labels = common.documented_data()
        opt, out = optimizer(model.parameters(), lr=1e-3), []
        for _ in range(30):
            opt.zero_grad()
            loss = nn.functional.cross_entropy(model(ids), labels)
            loss.backward()
            opt.step()
            out.append(loss.item())
        return torch.tensor(out)
    reference = torch.tensor(common.documented_trace())
    tanh = (trace(act=lambda: nn.GELU(approximate="tanh")) - reference).abs().max()
    adamw = (trace(optimizer=torch.optim.AdamW) - reference).abs().max()
    assert tanh < common.TRACE_ATOL / 2 and adamw > 2 * common.TRACE_ATOL


def test_examples_grade_as_described(tmp_path):
    """Full solution 16, untouched 0, the loop-only mistake costs train_classifier only,
    the partial notebook loses points on both questions."""
    from autograder.engine import assignment as assignment_mod
    from tests.conftest import grade
    loaded = assignment_mod.load("hw4_bert_finetuning")
    full = {q: loaded.config.max_points(q) for q in loaded.questions}
    results = grade("hw4_bert_finetuning", paths.EXAMPLES / "hw4_bert_finetuning", tmp_path / "out")
    scores = {sub: r.question_scores(loaded.questions) for sub, r in results.items()}
    assert scores["full_solution"] == full
    assert scores["untouched"] == {q: 0.0 for q in full}
    loop_only = scores["loop_only_mistake"]
    assert loop_only["TinyBertForClassification"] == full["TinyBertForClassification"]
    assert loop_only["train_classifier"] < full["train_classifier"]
    assert all(scores["partial_mistakes"][q] < full[q] for q in full)


def test_the_attention_sent_to_workers_is_the_notebooks_provided_cell():
    """The only code the hidden tests send into a worker is Part 0's public
    TinySelfAttn (provided.py), exactly as the student notebook holds it, and
    the master pastes it rather than holding a copy of its own."""
    import ast

    import nbformat
    from autograder.build import copies
    provided = paths.PACKAGE / "hw4_bert_finetuning" / "provided.py"
    notebook = nbformat.read(paths.ASSIGNMENTS / "hw4_bert_finetuning" / "hw4_bert_finetuning.ipynb",
                             as_version=4)
    cells = [c.source for c in notebook.cells
             if c.cell_type == "code" and "class TinySelfAttn" in c.source]
    assert cells == [copies.definitions(provided, ["TinySelfAttn"])]
    master = (paths.SOLUTIONS / "hw4_bert_finetuning" / "hw4_bert_finetuning.py").read_text()
    assert copies.sources(master) == [provided] and "class TinySelfAttn" not in master
    assert common.PROVIDED_SOURCE == provided.read_text()
    defined = [n.name for n in ast.parse(common.PROVIDED_SOURCE).body
               if isinstance(n, (ast.ClassDef, ast.FunctionDef))]
    assert defined == ["TinySelfAttn", "provided_attention"]
