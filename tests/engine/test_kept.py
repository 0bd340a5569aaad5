"""The batch's kept values (engine/kept.py): bounded by the sizes their users give,
the oldest dropped first, the newest kept even alone over the bound."""
from autograder.engine.kept import Kept


def test_the_oldest_entries_go_first_once_the_sizes_pass_the_bound():
    kept = Kept(10)
    for key in "abc":
        kept.put(key, key.upper(), 4)
    assert [kept.get(k) for k in "abc"] == [None, "B", "C"] and kept.size == 8
    kept.put("b", "B2", 1)  # in place: its old size is given back, and it is now the newest
    kept.put("d", "D", 4)
    assert [kept.get(k) for k in "bcd"] == ["B2", "C", "D"] and kept.size == 9
    kept.put("e", "E", 3)
    assert kept.get("b") == "B2" and kept.get("c") is None and kept.size == 8


def test_the_newest_entry_stays_even_over_the_bound():
    kept = Kept(10)
    kept.put("a", 1, 4)
    kept.put("big", 2, 25)
    assert kept.get("a", "gone") == "gone" and kept.get("big") == 2 and len(kept) == 1
    assert kept.size == 25
