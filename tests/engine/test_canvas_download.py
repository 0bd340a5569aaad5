"""Canvas "Download Submissions" names beyond one student's file: anonymous
assignments (anon_<id>, no user id), group assignments (the group's name, one
member's user id) and the prefix kept as Canvas wrote it. Names only: nothing
is graded here (tests/lms grades a whole download)."""
from __future__ import annotations

from pathlib import Path

from autograder.engine.intake.canvas_download import parse
from autograder.engine.intake.submissions import discover


def entries(folder: Path, names: list[str]) -> dict:
    folder.mkdir(exist_ok=True)
    for name in names:
        (folder / name).write_text("{}")
    found, _ = discover(folder)
    return {e.id: e for e in found}


def test_anonymous_names_are_recognised_without_a_user_id():
    """An anonymous download's "anon_<id>_<file id>_<name>": no name, no user id, LATE first."""
    f = parse(Path("anon_Xy3k9_50003_hw1_attention.ipynb"))
    assert (f.anonymous_id, f.user_id, f.submission_id, f.late) == ("Xy3k9", "", "50003", False)
    assert f.entry_id == "anon_Xy3k9" and f.original == "hw1_attention.ipynb"
    late = parse(Path("LATE_anon_Xy3k9_50004_hw1_attention.ipynb"))
    assert late.late and late.anonymous_id == "Xy3k9" and late.entry_id == "anon_Xy3k9"
    users = f.metadata()["users"]
    assert users == [{"canvas_anonymous_id": "Xy3k9"}]  # nothing Canvas did not say


def test_an_anonymous_download_is_read_whole(tmp_path):
    """In a download that is surely anonymous, "anon_12345_..." is an anonymous id too
    (not user 12345 named "anon"); alone, it is a student named anon."""
    both = entries(tmp_path / "anon", ["anon_Xy3k9_50003_hw.ipynb", "anon_12345_50009_hw.ipynb",
                                       "anon_Xy3k9_50001_old.ipynb"])
    assert sorted(both) == ["anon_12345", "anon_Xy3k9"]
    assert both["anon_12345"].metadata["users"] == [{"canvas_anonymous_id": "12345"}]
    assert both["anon_Xy3k9"].path.name == "anon_Xy3k9_50003_hw.ipynb"  # the latest file
    alone = entries(tmp_path / "named", ["anon_1001_50001_hw.ipynb"])
    assert alone["anon_1001"].metadata["users"] == [{"name": "anon", "canvas_user_id": "1001"}]


def test_a_group_name_may_hold_underscores():
    """A group assignment's file is named after the group (Canvas keeps its
    underscores) and one member's user id."""
    f = parse(Path("team_a_LATE_1002_50003_hw1_attention.ipynb"))
    assert (f.name, f.user_id, f.submission_id, f.late) == ("team_a", "1002", "50003", True)
    assert f.entry_id == "team_a_1002"
    g = parse(Path("group3_1004_50005_my_hw_1_2.ipynb"))
    assert (g.name, g.user_id, g.original) == ("group3", "1004", "my_hw_1_2.ipynb")


def test_the_prefix_is_kept_as_canvas_wrote_it(tmp_path):
    """What goes back to Canvas must carry the same name, LATE mark and ids."""
    found = entries(tmp_path / "subs", ["hoppergrace_LATE_1002_50003_Hw1-2.ipynb",
                                        "anon_Xy3k9_50007_x.ipynb"])
    assert found["hoppergrace_1002"].metadata["canvas_prefix"] == "hoppergrace_LATE_1002_50003_"
    assert found["anon_Xy3k9"].metadata["canvas_prefix"] == "anon_Xy3k9_50007_"
