"""`python -m autograder new ID`, and `build`'s checks of a new assignment.

Everything runs in a temporary copy of the package and its configs (the
commands run there as an instructor runs them, `python -m autograder ...`
from the copy's root), so no scaffolded assignment is ever left in the
repository.
"""
from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from autograder import paths, registry

# Heavy (builds and grades new assignments): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

ID = "hw7_layernorm"
LIMITS = ["--limit", "notebook_seconds=20", "--limit", "call_seconds=10"]


def autograder(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", *args], cwd=root,
                          capture_output=True, text=True, timeout=600)


def copy_of_repository(target: Path) -> Path:
    """What `new`, `build` and `grade` need, copied: the package, the configs
    of the course's assignments, the files the Gradescope zip ships."""
    shutil.copytree(paths.PACKAGE, target / "autograder",
                    ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(paths.CONFIG, target / "grading_config")
    for name in ("requirements.txt", "pyproject.toml", "scripts/install_torch.sh"):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(paths.ROOT / name, target / name)
    (target / "solutions").mkdir()
    return target


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A copy of the repository in which `new ID` ran, then `build ID`."""
    root = copy_of_repository(tmp_path_factory.mktemp("course"))
    new = autograder(root, "new", ID, "--title", "Homework 7: layer norm")
    assert new.returncode == 0, new.stderr
    build = autograder(root, "build", ID)
    assert build.returncode == 0, build.stderr
    return root, new, build


def notebook_points(root: Path) -> str:
    text = (root / "assignments" / ID / f"{ID}.ipynb").read_text()
    return re.search(r'points = ([\d.]+)', json.loads(text)["metadata"]["otter"]["tests"]
                     ["softmax"]).group(1)


def test_new_writes_the_skeleton_in_the_copy_only(course):
    """Does `new` write master, reference, hidden test and config, and
    nothing in the repository?"""
    root, new, _ = course
    for path in (f"solutions/{ID}/{ID}.py", f"autograder/{ID}/reference.py",
                 f"autograder/{ID}/test_softmax.py", f"grading_config/{ID}.toml"):
        assert (root / path).is_file() and f"wrote {path}" in new.stdout, path
    assert "python -m autograder build hw7_layernorm" in new.stdout
    assert not (paths.SOLUTIONS / ID).exists() and not registry.get(ID).hidden_tests.exists()
    assert not registry.get(ID).config.exists()


def test_skeleton_builds_and_grades_at_once(course):
    """Does the built skeleton give full marks to its solution and 0 to the untouched notebook?"""
    root, _, build = course
    assert "hw7_layernorm: assignments/hw7_layernorm/hw7_layernorm.ipynb" in build.stdout
    student = (root / "assignments" / ID / f"{ID}.ipynb").read_text()
    assert "def softmax(x):" in student and "z.max(axis=-1" not in student  # stub, no solution
    assert notebook_points(root) == "2"  # the config's points, shown to the student
    assert "Upload the zip (or the .ipynb) to Gradescope." in student  # the config's [submit]
    graded = autograder(root, "grade", f"examples/{ID}", "--assignment", ID, "--out", "out",
                        "--quiet", *LIMITS)
    assert graded.returncode == 0, graded.stderr
    with open(root / "out" / "grades.csv", newline="") as f:
        totals = {r["submission"]: (r["total"], r["max_total"]) for r in csv.DictReader(f)}
    assert totals == {"full_solution": ("2.0", "2.0"), "untouched": ("0.0", "2.0")}


def test_new_refuses_an_existing_or_unusable_id(course):
    root = course[0]
    again = autograder(root, "new", ID)
    assert again.returncode == 2 and "hw7_layernorm exists already" in again.stderr
    for bad in ("7up", "Hw7", "class", "hw-7"):
        refused = autograder(root, "new", bad)
        assert refused.returncode == 2 and "is not a usable id" in refused.stderr, bad
        assert not (root / "solutions" / bad).exists()


def test_points_come_from_the_config(course, tmp_path):
    """Changing the config's points changes the number the student notebook shows."""
    root = copy_of_repository(tmp_path / "copy")
    shutil.copytree(course[0] / "solutions" / ID, root / "solutions" / ID)
    shutil.copytree(course[0] / "autograder" / ID, root / "autograder" / ID)
    config = (course[0] / "grading_config" / f"{ID}.toml").read_text()
    (root / "grading_config" / f"{ID}.toml").write_text(
        config.replace("test_large_scores = 0.5", "test_large_scores = 2"))
    assert autograder(root, "build", ID).returncode == 0
    assert notebook_points(root) == "3.5"


def test_build_refuses_points_that_disagree(course, tmp_path):
    """A master saying 10 points where the config gives 2: refused, with both numbers."""
    root = copy_of_repository(tmp_path / "copy")
    shutil.copytree(course[0] / "autograder" / ID, root / "autograder" / ID)
    master = (course[0] / "solutions" / ID / f"{ID}.py").read_text()
    (root / "solutions" / ID).mkdir()
    (root / "solutions" / ID / f"{ID}.py").write_text(
        master.replace("# name: softmax\n", "# name: softmax\n# points: 10\n"))
    (root / "grading_config" / f"{ID}.toml").write_text(
        (course[0] / "grading_config" / f"{ID}.toml").read_text())
    build = autograder(root, "build", ID)
    assert build.returncode == 1
    assert ("question 'softmax': the master says 10 points, grading_config/hw7_layernorm.toml "
            "gives 2") in build.stderr
    assert not (root / "assignments" / ID).exists()


def test_build_and_grade_give_the_same_message_for_a_misspelt_test(course, tmp_path):
    """A config naming a test that does not exist fails at build, as grade says it."""
    root = copy_of_repository(tmp_path / "copy")
    shutil.copytree(course[0] / "solutions" / ID, root / "solutions" / ID)
    shutil.copytree(course[0] / "autograder" / ID, root / "autograder" / ID)
    (root / "grading_config" / f"{ID}.toml").write_text(
        (course[0] / "grading_config" / f"{ID}.toml").read_text()
        .replace("test_large_scores = 0.5", "test_large_scroes = 0.5"))
    build = autograder(root, "build", ID)
    shutil.copytree(course[0] / "examples" / ID, root / "examples" / ID)
    grade = autograder(root, "grade", f"examples/{ID}", "--assignment", ID, "--out", "out")
    assert build.returncode == 1 and grade.returncode == 2
    message = ("grading_config/hw7_layernorm.toml and the hidden tests disagree: tests without "
               "points ['softmax::test_large_scores'], points without tests "
               "['softmax::test_large_scroes']")
    assert message in build.stderr and message in grade.stderr


def test_skeleton_runs_under_pytest_with_its_parametrized_cases(course):
    """Does `pytest autograder/ID --notebook ...` run the skeleton's fixture and each
    parametrized case, with the config's points split evenly (1.5 over 3 cases)?"""
    root = course[0]
    run = subprocess.run([sys.executable, "-m", "pytest", f"autograder/{ID}", "--notebook",
                          f"examples/{ID}/full_solution.ipynb", "-p", "no:cacheprovider"],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-2000:]
    for case in ("vector", "matrix", "batch"):
        assert re.search(rf"0\.5 / 0\.5 +\S+::test_values\[{case}\]", run.stdout), run.stdout
    assert "total: 2 / 2" in run.stdout
    untouched = subprocess.run([sys.executable, "-m", "pytest", f"autograder/{ID}",
                                "--notebook", f"examples/{ID}/untouched.ipynb", "-x",
                                "-p", "no:cacheprovider"], cwd=root, capture_output=True,
                               text=True, timeout=300)
    assert untouched.returncode == 1 and "1 failed" in untouched.stdout


WRONG_CALL = '''

def test_rejects_empty(student):
    """raises ValueError for an empty input"""
    from autograder.testing import expect_raises
    expect_raises(ValueError, lambda: student.softmax(np.array([])), "softmax([])")
'''
"""A check called as it is not written (expect_raises is a context manager)."""


def test_build_and_grade_refuse_tests_that_fail_their_own_solution(course, tmp_path):
    """Hidden tests that break on their own side (a typo, `ref.softmx`; a check called
    the wrong way) would fail every student alike: build writes nothing and tells the
    author what each test raised, and where, without a traceback or the words meant for
    students; grade refuses before grading anyone, with the same words; fixed, both go
    ahead."""
    root = copy_of_repository(tmp_path / "copy")
    shutil.copytree(course[0] / "solutions" / ID, root / "solutions" / ID)
    shutil.copytree(course[0] / "autograder" / ID, root / "autograder" / ID)
    shutil.copytree(course[0] / "examples" / ID, root / "examples" / ID)
    (root / "grading_config" / f"{ID}.toml").write_text(
        (course[0] / "grading_config" / f"{ID}.toml").read_text())
    test = root / "autograder" / ID / "test_softmax.py"
    config = root / "grading_config" / f"{ID}.toml"
    good, points = test.read_text(), config.read_text()
    test.write_text(good.replace("ref.softmax(large)", "ref.softmx(large)") + WRONG_CALL)
    config.write_text(points.replace("test_large_scores = 0.5",
                                     "test_large_scores = 0.5\ntest_rejects_empty = 1"))
    build = autograder(root, "build", ID)
    grade = autograder(root, "grade", f"examples/{ID}", "--assignment", ID, "--out", "out")
    assert build.returncode == 1 and grade.returncode == 2, build.stderr + grade.stderr
    for named in ("softmax::test_large_scores: your test raised AttributeError: module "
                  "'autograder.hw7_layernorm.reference' has no attribute 'softmx' "
                  "(test_softmax.py, line ",
                  "softmax::test_rejects_empty: your test raised TypeError: expect_raises() "
                  "takes 2 positional arguments but 3 were given (test_softmax.py, line "):
        assert named in build.stderr and named in grade.stderr, build.stderr
    for said in (build.stderr, grade.stderr):
        assert "Traceback" not in said and "withheld" not in said, said
    assert not (root / "assignments" / ID).exists() and not (root / "out").exists()
    test.write_text(good)
    config.write_text(points)
    assert autograder(root, "build", ID).returncode == 0
    graded = autograder(root, "grade", f"examples/{ID}", "--assignment", ID, "--out", "out")
    assert graded.returncode == 0, graded.stderr


STAND_IN_FRIENDLY = '''

def test_rejects_empty(student):
    """raises ValueError for an empty input"""
    from autograder.testing import expect_raises
    with expect_raises(ValueError, "softmax([])"):
        student.softmax(np.array([]))
'''
"""A test of bad input that never checks a valid call answers: `raise ValueError` pays."""

ANSWERS_FIRST = '''

def test_rejects_empty(student):
    """answers a valid x, and raises ValueError for an empty input"""
    from autograder.testing import as_array, expect_raises, fail
    p = as_array(student.softmax(np.array([1.0, 2.0, 3.0])), "softmax([1, 2, 3])")
    if p.size != 3 or not np.isfinite(p).all() or len(set(p.ravel().tolist())) < 3:
        fail("softmax([1, 2, 3]) is not three different probabilities: rejecting bad input "
             "pays only beside an answer")
    with expect_raises(ValueError, "softmax([])"):
        student.softmax(np.array([]))
'''
"""The same test fixed: a valid call must answer first, and not with a constant."""


def test_build_refuses_a_test_a_stand_in_earns_points_on(course, tmp_path):
    """A new assignment's validation test that a stub raising everywhere passes: the
    solution gets every point and the untouched notebook none, yet build writes nothing
    and names the stand-in and the test (grade refuses too); fixed to check a valid call
    first, it builds and grades."""
    root = copy_of_repository(tmp_path / "copy")
    for folder in ("solutions", "autograder", "examples"):
        shutil.copytree(course[0] / folder / ID, root / folder / ID)
    config = root / "grading_config" / f"{ID}.toml"
    config.write_text((course[0] / "grading_config" / f"{ID}.toml").read_text()
                      .replace("test_large_scores = 0.5", "test_large_scores = 0.5\n"
                               "test_rejects_empty = 1"))
    test = root / "autograder" / ID / "test_softmax.py"
    good = test.read_text()
    test.write_text(good + STAND_IN_FRIENDLY)
    build = autograder(root, "build", ID)
    grade = autograder(root, "grade", f"examples/{ID}", "--assignment", ID, "--out", "out")
    assert build.returncode == 1 and grade.returncode == 2, build.stderr + grade.stderr
    # the raising stand-in, and those answering zeros or ones (which raise where the
    # reference does): one sentence for the test
    named = ("stand-ins (raising everywhere; answering the right answer with every number "
             "made 0; answering the right answer with every number made 1) earn 1 point(s) on "
             "softmax::test_rejects_empty: a test must first check that a valid call answers")
    assert named in build.stderr and named in grade.stderr, build.stderr
    assert build.stderr.count("point(s) on") == 1  # the skeleton's own tests pay no stand-in
    assert "loses" not in build.stderr and "untouched notebook" not in build.stderr
    assert not (root / "assignments" / ID).exists() and not (root / "out").exists()
    test.write_text(good + ANSWERS_FIRST)
    fixed = autograder(root, "build", ID)
    assert fixed.returncode == 0, fixed.stderr
    graded = autograder(root, "grade", f"examples/{ID}", "--assignment", ID, "--out", "out",
                        "--quiet", *LIMITS)
    assert graded.returncode == 0, graded.stderr
    with open(root / "out" / "grades.csv", newline="") as f:
        totals = {r["submission"]: r["total"] for r in csv.DictReader(f)}
    assert totals == {"full_solution": "3.0", "untouched": "0.0"}


def test_a_test_that_raises_on_its_own_side_withholds_points(course, tmp_path):
    """A hidden test that reshapes the answer before checking it breaks, on the
    grader's side, on an answer of the wrong size: that is the test's fault.
    The solution still gets every point (so build and grade accept the test), the
    wrong-sized answer (and the untouched stub's None) loses nothing there but
    needs a regrade, everywhere an instructor looks, and grade exits 3."""
    root = copy_of_repository(tmp_path / "copy")
    for folder in ("solutions", "autograder", "examples"):
        shutil.copytree(course[0] / folder / ID, root / folder / ID)
    (root / "grading_config" / f"{ID}.toml").write_text(
        (course[0] / "grading_config" / f"{ID}.toml").read_text())
    test = root / "autograder" / ID / "test_softmax.py"
    test.write_text(test.read_text().replace(
        "expect_close(student.softmax(x), ref.softmax(x)",
        "expect_close(np.asarray(student.softmax(x)).reshape(x.shape), ref.softmax(x)"))
    subs = root / "subs"
    shutil.copytree(root / "examples" / ID, subs)
    full = json.loads((subs / "full_solution.ipynb").read_text())
    for cell in full["cells"]:
        source = "".join(cell["source"])
        if source.lstrip().startswith("def softmax"):
            cell["source"] = source + "\n\n_right = softmax\nsoftmax = lambda x: _right(x)[..., :1]\n"
    (subs / "wrong_size.ipynb").write_text(json.dumps(full))
    grade = autograder(root, "grade", "subs", "--assignment", ID, "--out", "out")
    assert grade.returncode == 3, grade.stdout + grade.stderr
    assert "NEEDS REGRADE: 2 submission(s) (untouched, wrong_size)" in grade.stdout
    result = json.loads((root / "out" / "wrong_size" / "results.json").read_text())
    assert result["output"].startswith("Needs regrade: 3 test(s)")
    withheld = [t for t in result["tests"] if "problem in the grader" in t["output"]]
    assert [t["name"].split(": ")[0] for t in withheld] == ["softmax"] * 3
    with open(root / "out" / "gradebook.csv", newline="") as f:
        book = {r["submission"]: r for r in csv.DictReader(f)}
    assert book["wrong_size"]["status"] == "needs regrade"
    assert "softmax::test_values[vector] (ValueError)" in book["wrong_size"]["note"]
    assert book["full_solution"]["status"] == "graded"
    with open(root / "out" / "canvas.csv", newline="") as f:
        scores = [r[-1] for r in csv.reader(f)][2:]
    assert sorted(scores) == ["", "", "2"]  # the withheld ones wait for the regrade
    assert "need a regrade" in (root / "out" / "report.html").read_text()


def test_the_docs_complete_diagnoses_file_names_its_mistake(course, tmp_path):
    """docs/authoring.md's complete diagnoses.py, dropped into the skeleton, names the
    mistake of a notebook whose softmax forgets the maximum (scores near 1000 overflow),
    in the feedback only, and the full solution still gets nothing but its marks."""
    docs = (paths.ROOT / "docs" / "authoring.md").read_text()
    example = docs.split("### A complete diagnoses.py", 1)[1].split("```python\n", 1)[1]
    root = copy_of_repository(tmp_path / "copy")
    for folder in ("solutions", "autograder", "examples"):
        shutil.copytree(course[0] / folder / ID, root / folder / ID)
    (root / "grading_config" / f"{ID}.toml").write_text(
        (course[0] / "grading_config" / f"{ID}.toml").read_text())
    (root / "autograder" / ID / "diagnoses.py").write_text(example.split("```", 1)[0])
    subs = root / "subs"
    subs.mkdir()
    shutil.copyfile(root / "examples" / ID / "full_solution.ipynb", subs / "full.ipynb")
    full = json.loads((subs / "full.ipynb").read_text())
    for cell in full["cells"]:
        if "".join(cell["source"]).lstrip().startswith("def softmax"):
            cell["source"] = ("import numpy as np\n\ndef softmax(x):\n"
                              "    e = np.exp(np.asarray(x, dtype=np.float64))\n"
                              "    return e / e.sum(axis=-1, keepdims=True)\n")
    (subs / "unshifted.ipynb").write_text(json.dumps(full))
    graded = autograder(root, "grade", "subs", "--assignment", ID, "--out", "out", *LIMITS)
    assert graded.returncode == 0, graded.stderr
    assert "RuntimeWarning" not in graded.stderr  # the replay's overflow stays quiet
    feedback = (root / "out" / "unshifted" / "feedback.md").read_text()
    assert "This looks like: the maximum is not subtracted before exp" in feedback
    assert "This looks like" not in (root / "out" / "full" / "feedback.md").read_text()


def test_audit_names_an_assumption_that_costs_more_than_its_test(course, tmp_path):
    """`audit --assumptions-only` grades the stub answering in another shape (an extra
    leading axis): a validation test that checks the valid answer's shape in full makes
    it lose the rejecting test's point too, and the audit names that test and exits 1;
    checking only that a valid call answers, the audit finds nothing."""
    root = copy_of_repository(tmp_path / "copy")
    for folder in ("solutions", "autograder", "examples"):
        shutil.copytree(course[0] / folder / ID, root / folder / ID)
    (root / "grading_config" / f"{ID}.toml").write_text(
        (course[0] / "grading_config" / f"{ID}.toml").read_text()
        .replace("test_large_scores = 0.5", "test_large_scores = 0.5\ntest_rejects_empty = 1"))
    test = root / "autograder" / ID / "test_softmax.py"
    good = test.read_text()
    test.write_text(good + ANSWERS_FIRST.replace("if p.size != 3 or", "if p.shape != (3,) or"))
    audited = autograder(root, "audit", ID, "--assumptions-only")
    assert audited.returncode == 1, audited.stdout + audited.stderr
    assert ("cascaded softmax:assumes:shape (answers with an extra leading axis): 1 point(s) "
            "beyond its own test, on softmax.test_rejects_empty (not declared)") in audited.stdout
    test.write_text(good + ANSWERS_FIRST)
    audited = autograder(root, "audit", ID, "--assumptions-only")
    assert audited.returncode == 0, audited.stdout + audited.stderr
    assert "lose nothing beyond their own test" in audited.stdout
    # the parts it skipped are said to be skipped, not shown as empty ("corpus: 0 of 0")
    assert "mutants: not graded this run" in audited.stdout
    assert "corpus: not graded this run" in audited.stdout and "0 of 0" not in audited.stdout
