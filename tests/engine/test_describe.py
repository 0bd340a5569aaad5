"""Does a failing call tell the student which call it was, briefly?"""
import numpy as np
import torch

from autograder.engine.driving import describe


def test_arguments_are_abbreviated():
    """Arrays and tensors by shape and dtype, scalars by value, long things by size."""
    text = describe.call("mask_tokens", (np.zeros((32, 1024), dtype=np.int64), 50, 31,
                                         [0, 7, 19, 31], None),
                         {"select_prob": 0.5, "rng": torch.zeros(2, 3)})
    assert text == ("mask_tokens(array (32, 1024) int64, 50, 31, [0, 7, 19, 31], None, "
                    "select_prob=0.5, rng=tensor (2, 3) float32)")
    assert describe.value(np.int64(7)) == "7" and describe.value(True) == "True"
    assert describe.value(list(range(100))) == "list of 100"
    assert describe.value((5,)) == "(5,)" and describe.value({"a": 1}) == "dict of 1"
    assert describe.value("x" * 100).endswith("…") and len(describe.value("x" * 100)) < 40


def test_a_long_call_is_cut():
    assert len(describe.call("f", tuple(range(500)))) <= describe.MAX_CHARS


def test_a_student_error_names_the_call(grade_notebooks):
    """"mask_tokens(...) raised ZeroDivisionError" shows the arguments instead of "..."."""
    stub = ("def mask_tokens(input_ids, vocab_size, mask_id, special_ids, rng,\n"
            "                select_prob=0.15, mask_prob=0.8, random_prob=0.1):\n"
            "    return 1 / 0\n")
    result = grade_notebooks("hw3_bert_pretraining", {"s": [stub]})["s"]
    outputs = [t.output for t in result.tests if t.name == "test_types_and_shapes"]
    assert outputs[0].startswith("mask_tokens(array (16,) int64, 50, 31, [0, 7, 19, 31], "
                                 "<Generator>) raised ZeroDivisionError"), outputs
