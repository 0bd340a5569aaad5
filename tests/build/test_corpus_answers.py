"""The demo submissions' answers read from the corpus (autograder/build/examples.py):
exact text, whole variants, and the demos' mistakes are corpus variants."""
from __future__ import annotations

import ast
import dataclasses

import pytest

from autograder import registry
from autograder.build import examples
from autograder.build.transforms import BuildError

VARIANT = '''# question: f
# fails: test_f
# a comment
import math
from torch import nn


@staticmethod
def f(x):
    """Doc."""
    return math.sqrt(x)  # why


class G(nn.Module):
    pass
'''


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    record = dataclasses.replace(registry.get("hw1_attention"), corpus=tmp_path)
    monkeypatch.setattr(registry, "get", lambda _id: record)
    (tmp_path / "buggy").mkdir()
    (tmp_path / "buggy" / "v.py").write_text(VARIANT)
    return tmp_path


def test_answers_are_the_definitions_as_written(corpus):
    assert examples.corpus_answers("hw1_attention", "buggy/v") == {
        "f": '@staticmethod\ndef f(x):\n    """Doc."""\n    return math.sqrt(x)  # why\n',
        "G": "class G(nn.Module):\n    pass\n"}
    assert examples.corpus_cell("hw1_attention", "buggy/v") == VARIANT[VARIANT.index("@"):]


def test_a_variant_with_other_statements_is_refused(corpus):
    (corpus / "buggy" / "w.py").write_text(VARIANT + "\nTABLE = {}\n")
    with pytest.raises(BuildError, match="neither an import, a def nor a class"):
        examples.corpus_answers("hw1_attention", "buggy/w")
    with pytest.raises(BuildError, match="no corpus variant"):
        examples.corpus_answers("hw1_attention", "buggy/missing")


@pytest.mark.parametrize("assignment_id", examples.with_examples())
def test_the_demos_hold_no_answer_of_their_own(assignment_id):
    """An examples module defines no code cell as a string: its answers come
    from the corpus (hw1 keeps two broken cells, which the corpus cannot hold)."""
    source = (registry.get(assignment_id).examples_module).read_text()
    strings = [n.value for n in ast.walk(ast.parse(source))
               if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    code = [s for s in strings if s.lstrip().startswith(("def ", "class "))
            or "\ndef " in s or "return " in s]
    allowed = {"hw1_attention": 1}  # SYNTAX_ERROR: a class that does not parse
    assert len(code) == allowed.get(assignment_id, 0), code
