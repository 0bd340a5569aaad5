"""`python -m autograder build`: deterministic student notebooks that hold
public checks only, and that the real engine grades 0 (as handed out) and
full marks (with the solutions)."""
from __future__ import annotations

import ast
import json
import re
import shutil

import nbformat
import pytest

from autograder import paths, registry
from autograder.build import assign_cached, copies, solution_notebook, student_notebook, transforms
from autograder.build.examples import maker, with_examples
from autograder.engine import assignment as assignment_mod
from autograder.engine import config
from tests.conftest import grade

ASSIGNMENTS = [a.id for a in registry.all_assignments() if a.has_master]
# An exam's solution scores full marks only under its author's identity (the
# exam's own tests cover that); the plain scoring checks here are for the rest.
SCORED = [a for a in ASSIGNMENTS if not config.load(a).exam]
MARKERS = re.compile(r"BEGIN SOLUTION|END SOLUTION|#\s*SOLUTION\b|BEGIN HIDDEN|hidden\s*=\s*True"
                     r"|otter_assign_solution_cell")


def master_text(assignment_id: str) -> str:
    """The master as build reads it: its paste lines filled (autograder/build/copies.py)."""
    return copies.filled((paths.SOLUTIONS / assignment_id / f"{assignment_id}.py").read_text())


def public_master_text(assignment_id: str) -> str:
    """The master outside its solution blocks and test cells: what its author
    publishes on purpose (prose, quoted spec, tables of parameters)."""
    kept, skipping = [], None
    for line in master_text(assignment_id).splitlines():
        if skipping is None and re.match(r"\s*# (# )?BEGIN (SOLUTION|TESTS)", line):
            skipping = "END " + re.search(r"SOLUTION|TESTS", line).group(0)
        elif skipping and re.match(rf"\s*# (# )?{skipping}", line):
            skipping = None
        elif skipping is None:
            kept.append(line)
    return "\n".join(kept)


def quoted_spec(assignment_id: str) -> set[str]:
    """Inline code the master's prose quotes on purpose (`self.out = nn.Linear(h, h)`)."""
    return {span.strip() for span in re.findall(r"`([^`\n]+)`", master_text(assignment_id))}


def solution_lines(assignment_id: str) -> list[str]:
    """Code lines inside the master's BEGIN/END SOLUTION blocks, long enough
    to be specific, comments dropped, not part of inline code the prose
    quotes as spec."""
    lines, inside = [], False
    for line in master_text(assignment_id).splitlines():
        if re.match(r"\s*# BEGIN SOLUTION", line):  # in code; `# # BEGIN ...` is a raw cell
            inside = True
        elif re.match(r"\s*# END SOLUTION", line):
            inside = False
        elif inside:
            lines.append(line.split("  #")[0].strip())
    spec = quoted_spec(assignment_id)
    return [c for c in lines if len(c) >= 16 and not c.startswith("#")
            and not any(c in span for span in spec)]


def secret_lines(assignment_id: str) -> list[str]:
    """Statements of the reference and the hidden tests that are not imports,
    signatures, docstrings, or written in the master's public part (what must
    not leak into a student notebook). examples.py is left out: it writes
    answers into the student notebook, so it repeats the stubs' signatures,
    and the solutions it fills in are the master's (see solution_lines)."""
    found, spec, public = [], quoted_spec(assignment_id), public_master_text(assignment_id)
    skip = ("import ", "from ", "def ", "class ", "#", '"""', "'''", "@")
    for file in sorted(registry.get(assignment_id).hidden_tests.glob("*.py")):
        if file.name == "examples.py":
            continue
        for line in file.read_text().splitlines():
            code = line.split("  #")[0].strip()
            if (len(code) >= 24 and code not in public and not code.startswith(skip)
                    and not code.endswith('"""') and not any(code in s for s in spec)):
                found.append(code)
    return found


def hidden_test_names(assignment_id: str) -> list[str]:
    names = []
    for file in sorted(registry.get(assignment_id).hidden_tests.glob("test_*.py")):
        tree = ast.parse(file.read_text())
        names += [n.name for n in tree.body
                  if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    return names


def shipped_texts(assignment_id: str) -> dict[str, str]:
    """Every file under assignments/<id>/, notebooks as their cell sources
    plus their metadata (where otter keeps the public tests)."""
    texts = {}
    for path in sorted((paths.ASSIGNMENTS / assignment_id).rglob("*")):
        if not path.is_file():
            continue
        if path.suffix == ".ipynb":
            nb = nbformat.read(str(path), as_version=4)
            texts[str(path)] = "\n".join([c.source for c in nb.cells]
                                         + [json.dumps(nb.metadata, indent=1)]
                                         + [str(t) for t in nb.metadata.get("otter", {})
                                            .get("tests", {}).values()])
        else:
            texts[str(path)] = path.read_text(errors="replace")
    return texts


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_build_twice_gives_identical_bytes(assignment_id):
    """Does building twice (otter assign run afresh) give the same bytes, and
    are they the bytes committed under assignments/?"""
    assign_cached.cache_clear()
    first = student_notebook(assignment_id)
    assign_cached.cache_clear()
    second = student_notebook(assignment_id)
    assert first == second
    assert registry.get(assignment_id).student_notebook.read_bytes() == first, (
        f"assignments/{assignment_id} is stale: run `python -m autograder build {assignment_id}`")


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_student_notebook_is_canonical(assignment_id):
    """No outputs, execution counts or jupytext metadata; cells numbered."""
    nb = nbformat.reads(student_notebook(assignment_id).decode(), as_version=4)
    assert set(nb.metadata) <= {"kernelspec", "language_info", "otter"}
    for index, cell in enumerate(nb.cells):
        assert cell.id == f"cell-{index:03d}"
        assert set(cell.metadata) <= {"deletable", "editable", "tags"}
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_nothing_secret_is_shipped(assignment_id):
    """Are solution markers, solution code, reference code and hidden test
    names absent from everything under assignments/<id>/?"""
    texts = shipped_texts(assignment_id)
    assert texts, f"nothing under assignments/{assignment_id}"
    sol, secret = solution_lines(assignment_id), secret_lines(assignment_id)
    assert sol, "found no solution lines in the master: the check would be empty"
    names = hidden_test_names(assignment_id)
    for path, text in texts.items():
        assert not MARKERS.search(text), f"{path}: {MARKERS.search(text).group(0)!r}"
        leaked = [line for line in sol + secret if line in text]
        assert not leaked, f"{path} holds solution or hidden code: {leaked[:3]}"
        named = [n for n in names if re.search(rf"\b{n}\b", text)]
        assert not named, f"{path} names hidden tests {named}"


def test_secrets_check_refuses_a_solution():
    """Does the build's last transform refuse a notebook with a solution block?"""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("def f():\n    # BEGIN SOLUTION\n    return 1\n"
                                          "    # END SOLUTION")]
    with pytest.raises(transforms.BuildError):
        transforms.CheckNoSecrets()(nb)


def test_solution_markers_are_stripped_but_code_kept():
    """Are solution regions kept, without their marker lines, in the solution notebook?"""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("def f():\n    # BEGIN SOLUTION\n    return 1\n"
                                          "    # END SOLUTION\nx = 2 # SOLUTION")]
    out = transforms.StripSolutionMarkers()(nb)
    assert out.cells[0].source == "def f():\n    return 1\nx = 2"


@pytest.mark.heavy
@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_public_checks_travel_in_the_notebook(assignment_id, tmp_path, monkeypatch):
    """Can otter's own grader.check run the public tests from the notebook's
    metadata: all pass with the solutions, none pass with the stubs?"""
    otter = pytest.importorskip("otter")
    questions = assignment_mod.load(assignment_id).questions
    nb = nbformat.reads(student_notebook(assignment_id).decode(), as_version=4)
    assert sorted(nb.metadata["otter"]["tests"]) == sorted(questions)
    assert not (paths.ASSIGNMENTS / assignment_id / "tests").exists()
    monkeypatch.chdir(tmp_path)
    (tmp_path / f"{assignment_id}.ipynb").write_bytes(student_notebook(assignment_id))
    for source, expect_pass in ((solution_notebook(assignment_id), True), (nb, False)):
        env = _definitions(source)
        grader = otter.Notebook(f"{assignment_id}.ipynb")
        for q in questions:
            result = grader.check(q, global_env=env)
            assert bool(result.passed_all) is expect_pass, (q, repr(result))


def _definitions(nb) -> dict:
    """Run a notebook's code cells as a student would, without otter's own
    cells; a cell that raises (an unanswered stub) does not stop the rest."""
    env: dict = {}
    for cell in nb.cells:
        if cell.cell_type == "code" and not re.search(r"\b(grader|otter)\b", cell.source):
            try:
                exec(compile(cell.source, "<cell>", "exec"), env)
            except Exception:
                pass
    return env


@pytest.mark.heavy
@pytest.mark.parametrize("assignment_id", SCORED)
def test_engine_grades_student_zero_and_solution_full(assignment_id, tmp_path):
    """Through the real engine: the notebook as handed out scores 0 on every
    question, the solution notebook full marks on every question."""
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copyfile(registry.get(assignment_id).student_notebook, subs / "student.ipynb")
    nbformat.write(solution_notebook(assignment_id), str(subs / "solution.ipynb"))
    results = grade(assignment_id, subs, tmp_path / "out")
    loaded = assignment_mod.load(assignment_id)
    full = {q: sum(c.points for c in loaded.cases if c.question == q) for q in loaded.questions}
    assert results["student"].question_scores(loaded.questions) == {q: 0.0 for q in full}
    assert results["solution"].question_scores(loaded.questions) == pytest.approx(full)
    assert results["solution"].score == pytest.approx(loaded.max_total) and loaded.max_total > 0


@pytest.mark.parametrize("assignment_id", with_examples())
def test_examples_are_in_sync(assignment_id):
    """Is examples/<id>/ exactly what autograder/<id>/examples.py makes from
    the current student and solution notebooks (no file missing, stale or extra)?"""
    student = nbformat.reads(student_notebook(assignment_id).decode(), as_version=4)
    made = maker(assignment_id)(student, solution_notebook(assignment_id))
    folder = paths.EXAMPLES / assignment_id
    present = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert present == sorted(made), (
        f"examples/{assignment_id} holds other files than its examples.py makes")
    for name, data in made.items():
        assert (folder / name).read_bytes() == data, (
            f"examples/{assignment_id}/{name} is stale: run `python -m autograder build {assignment_id}`")


def test_hw1_examples_grade_as_described(tmp_path):
    """The demo folder: full solution and the zip score full marks, the
    untouched notebook 0, the mistakes lose points on the questions they
    touch, and a broken cell costs only its own question."""
    loaded = assignment_mod.load("hw1_attention")
    full = {q: sum(c.points for c in loaded.cases if c.question == q) for q in loaded.questions}
    results = grade("hw1_attention", paths.EXAMPLES / "hw1_attention", tmp_path / "out")
    scores = {sub: r.question_scores(loaded.questions) for sub, r in results.items()}
    assert scores["full_solution"] == full and scores["otter_export"] == full
    assert scores["untouched"] == {q: 0.0 for q in full}
    partial = scores["partial_mistakes"]
    assert 0 < partial["causal_mask"] < full["causal_mask"]
    assert partial["scaled_dot_product_attention"] < full["scaled_dot_product_attention"]
    broken = scores["broken_cells"]
    assert broken["TinySelfAttn"] == 0.0
    notes = "\n".join(results["broken_cells"].notes)
    assert "SyntaxError" in notes and "NameError" in notes, "not told which cells failed"
    assert {q: broken[q] for q in ("causal_mask", "scaled_dot_product_attention")} == {
        q: full[q] for q in ("causal_mask", "scaled_dot_product_attention")}


def test_build_refuses_an_unknown_assignment(capsys):
    """Does `build nope` fail with a message naming what exists, writing nothing?"""
    from autograder.build import main as build_main
    assert build_main(assignments=["no_such_assignment"]) == 2
    err = capsys.readouterr().err
    assert "no_such_assignment" in err and ASSIGNMENTS[0] in err
    assert not (paths.ASSIGNMENTS / "no_such_assignment").exists()


def test_points_are_written_from_the_config_and_disagreements_refused():
    """Does build give each question the config's points, refuse a master (or
    its prompt) that says otherwise, and leave manual questions alone?"""
    import dataclasses

    import jupytext

    from autograder.build import points
    cfg = config.load("exam_midterm")
    text = master_text("exam_midterm")
    nb = jupytext.reads(text, fmt="py:percent")
    points.apply(nb, cfg)
    settings = {c.source.split("\n")[1]: c.source for c in nb.cells
                if c.cell_type == "raw" and c.source.startswith("# BEGIN QUESTION")}
    assert settings["name: encoder_params"].endswith("\npoints: 3")  # 0.5 + 2.5 in the config
    assert "points: 4" in settings["name: fr_bidirectional"]  # manual: the master's own
    prompt = "**Question A1 (3 points).**"
    for broken, says in (
            (text.replace(prompt, "**Question A1 (4 points).**"), "the master says 4 points"),
            (text.replace("# name: encoder_params\n", "# name: encoder_params\n# points: 2\n"),
             "the master says 2 points")):
        with pytest.raises(transforms.BuildError, match=says):
            points.apply(jupytext.reads(broken, fmt="py:percent"), cfg)
    fewer = dataclasses.replace(cfg, tests={q: t for q, t in cfg.tests.items()
                                            if q != "perplexity"})
    with pytest.raises(transforms.BuildError, match=r"'perplexity' of the master has no \[tests"):
        points.apply(jupytext.reads(text, fmt="py:percent"), fewer)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_points_show_beside_every_question(assignment_id):
    """Does every question of the committed student notebook say its points, the
    grading config's, in its prompt ("(4 points)")?"""
    from autograder.build.assign import load_config
    from autograder.build.transforms import WritePoints, points_text
    config = load_config(assignment_id)
    cells = nbformat.read(str(registry.get(assignment_id).student_notebook), as_version=4).cells
    for question in config.questions:
        check = next(i for i, c in enumerate(cells) if c.source.strip()
                     == f'grader.check("{question}")')
        prompt = WritePoints.prompt(cells, check)
        assert points_text(config.max_points(question)) in prompt.source, (question, prompt.source)
    for question, manual in config.manual.items():
        prompt = next(c for c in cells if f"<!-- free response: {question} -->" in c.source)
        assert points_text(manual.points) in prompt.source, (question, prompt.source)


@pytest.mark.parametrize("assignment_id", ASSIGNMENTS)
def test_submit_cell_names_the_place(assignment_id):
    """Does the cell before the export cell say where to upload, from the config?"""
    from autograder.build import submit_sentence
    from autograder.build.assign import load_config
    cells = nbformat.read(str(registry.get(assignment_id).student_notebook), as_version=4).cells
    export = next(i for i, c in enumerate(cells) if "export_submission(pdf=" in c.source)
    assert submit_sentence(assignment_id) in cells[export - 1].source
    assert load_config(assignment_id).submit.to in cells[export - 1].source


def test_a_build_leaves_nothing_in_the_temporary_folder(tmp_path, monkeypatch):
    """otter assign copies the public tests into a folder of its own (tempfile.mkdtemp)
    that it removes only when it also generates its autograder zip: each build left one
    in /tmp, with a copy of every public check (1,834 such folders on this machine after
    a day of test runs). It is made in build's own temporary folder now, removed with it."""
    from autograder.build.assign import run_otter_assign
    machine_tmp = tmp_path / "tmp"
    machine_tmp.mkdir()
    monkeypatch.setattr("tempfile.tempdir", str(machine_tmp))
    assigned = run_otter_assign(registry.get("hw1_attention").master)
    assert assigned.student.metadata["otter"]["tests"]  # the tests were written, then
    assert list(machine_tmp.iterdir()) == []
