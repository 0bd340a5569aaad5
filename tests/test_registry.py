"""Does the registry (autograder/registry.py) know every assignment and every path?"""
from __future__ import annotations

from autograder import paths, registry


def test_every_assignment_of_the_course_is_listed_once_with_its_files():
    ids = registry.ids()
    assert ids == sorted(set(ids)) and {"hw1_attention", "exam_midterm"} <= set(ids)
    for a in registry.all_assignments():
        for path in (a.master, a.student_notebook, a.reference, a.config, a.examples_module):
            assert path.is_file(), path
        assert a.examples.is_dir() and a.test_files() and a.package == f"autograder.{a.id}"
        assert a.package_files()[0].is_relative_to(a.hidden_tests)
        assert not [p for p in a.package_files() if "__pycache__" in p.parts]
    assert [a.id for a in registry.all_assignments() if a.has_reports] == ["exam_midterm"]


def test_a_record_names_paths_that_may_not_exist_yet():
    a = registry.get("hw9_new")
    assert a.master == paths.SOLUTIONS / "hw9_new" / "hw9_new.py"
    assert a.config == paths.CONFIG / "hw9_new.toml"
    assert not a.has_master and not a.has_examples and "hw9_new" not in registry.ids()
