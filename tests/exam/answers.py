"""The right short answers of the midterm for one identity: shared by the exam's tests."""
from __future__ import annotations

from autograder.exam import variants
from autograder.exam_midterm import reference as ref


def parameters(sid: str) -> dict:
    """{question: its numbers for identity `sid`}, the variant index left out."""
    return {q: {k: v for k, v in d.items() if k != "variant"}
            for q, d in variants.parameters(ref.EXAM, ref.tables(), sid).items()}


def right_answers(sid: str) -> dict:
    """The right value of each short answer for identity `sid` (plain Python values)."""
    p = parameters(sid)
    return {"ENCODER_LAYER_PARAMS": ref.encoder_params(**p["encoder_params"]),
            "CROSS_ATTENTION_SHAPE": ref.cross_attention_shape(**p["cross_attention_shape"]),
            "MASK_FRACTION": ref.mask_fraction(**p["mask_fraction"]),
            "CHANCE_LOSS": ref.chance_loss(**p["chance_level"]),
            "CHANCE_PERPLEXITY": ref.chance_perplexity(**p["chance_level"])}
