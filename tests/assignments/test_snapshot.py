"""Is every graded byte as it was? The corpus and the examples of each
assignment, graded now, against the committed tests/assignments/snapshots/<id>.json
(score, error, notes, and each test's name, score, status and output).
A refactor leaves them equal; a deliberate change of the hidden tests
regenerates them with scripts/results_snapshot.py (tests/assignments/snapshot_tools.py)."""
from __future__ import annotations

import json

import pytest

from tests.assignments import corpus_tools, snapshot_tools

# Heavy (grades every assignment's examples): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy


def test_numbers_in_messages_compare_within_their_last_digits():
    same = snapshot_tools.same
    assert same(["yours is 0.990336; order 1e+00"], ["yours is 0.990337; order 1e+00"])
    assert not same(["yours is 0.990336"], ["yours is 0.991336"])  # a real change
    assert not same(["6 of 6 entries"], ["5 of 6 entries"])  # integers exactly
    assert not same(["yours is 0.990336"], ["ours is 0.990336"])
    assert not same({"score": 10.5}, {"score": 10.0}) and same({"score": 10.5}, {"score": 10.5})


@pytest.mark.parametrize("assignment_id", snapshot_tools.ASSIGNMENTS)
def test_results_match_snapshot(graded, assignment_id, tmp_path):
    corpus = graded.results(assignment_id) if corpus_tools.variants(assignment_id) else None
    now = json.loads(snapshot_tools.dumps(snapshot_tools.graded(assignment_id, tmp_path, corpus)))
    expected = json.loads(snapshot_tools.path(assignment_id).read_text())
    for part in ("corpus", "examples"):
        assert now[part].keys() == expected[part].keys(), part
        changed = [sid for sid in now[part]
                   if not snapshot_tools.same(now[part][sid], expected[part][sid])]
        assert not changed, (f"{part}: {len(changed)} submissions graded differently, "
                             f"first {changed[0]}: {now[part][changed[0]]}")
