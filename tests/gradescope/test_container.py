"""Does the Gradescope zip grade every submission in Gradescope's container, at
its defaults, with and without Landlock? (tests/gradescope/container.py says
what is reproduced and what is not)

For hw1, hw4 and hw6, each zip's image is built by its own setup.sh, and every
case runs in a fresh container of 768 MB and half a CPU, as root under Docker's
capabilities and seccomp profile, once with Landlock (mode `landlock`) and once
with its system calls refused (mode `uid`): the full solution gets its full
score, and each attack of the hostile corpus (tests/security/attacks/hw1_attention)
no more than the same notebook without the attack (its declared outcome in hw1,
where it is written for), leaking nothing. The untouched notebook gets 0 in each
image, in landlock mode (UNTOUCHED_MODE), and a broken file an error result in
hw1's (BROKEN_IN). In hw4's and hw6's images only the attacks on
what differs from one zip to the next run (PER_ZIP_ATTACKS: the files it ships,
the results it writes, the memory its grading leaves the worker), in uid mode
only (PER_ZIP_MODE): its wall is the one landlock mode stands on too (the
workers' own uids, file permissions, the same limits), Landlock only adds to it,
and hw1's image runs them in both modes. The others
attack the grader and the sandbox, which every zip holds alike, and run in
hw1's. In uid mode, hw1's image runs only the attacks on the sandbox
(SANDBOX_ATTACKS: what a worker may read, write, signal, hold or reach, defended
differently in each mode); in landlock mode it runs every attack but those on the
grader's protocol and tests (PROTOCOL_ATTACKS: what a worker answers, sends or
keeps between calls). The zip's grading code defends against those as it does on
any machine, and tests/security/test_integrity.py runs them in every sandbox mode,
the container-like ones included. The attacks on what Gradescope shows (the
results' size, encoding and text) run here. The attacks run with short limits (an
image whose config says so); the other cases with the zip's own. The figures of
each case (mode, score, wall time, memory peak) are printed: `pytest -s`.
"""
from __future__ import annotations

import inspect
import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest

from autograder import registry
from autograder.build import solution_notebook
from autograder.engine import assignment as assignment_mod
from autograder.engine.intake import handout
from autograder.gradescope import package, try_zip
from tests.gradescope import container
from tests.security import leaks

pytestmark = [pytest.mark.slow(minutes=15),  # one group: every case shares the images
              pytest.mark.skipif(container.unavailable() is not None,
                                 reason=str(container.unavailable()))]

ASSIGNMENTS = ("hw1_attention", "hw4_bert_finetuning", "hw6_encoder_decoder")
MODES = {"landlock": True, "uid": False}
"""The mode each run must get -> whether Landlock's system calls are allowed."""
ATTACKS = Path(__file__).parents[1] / "security" / "attacks" / "hw1_attention"
ATTACK_LIMITS = {"notebook_seconds": 8, "call_seconds": 5, "restarts": 1}
"""Short, so that the attacks that hang cost little; long enough for an attack that calls
back into the grader many times (replay_lent_attention) with its half CPU shared."""
CONTAINERS_AT_ONCE = 2
"""Containers run side by side (half a CPU each), each in a lane with its own 1.6 GB copy
of the venv (about 6 s of the kernel's CPU to make): two, since the rest of the suite
beside them keeps both cores busy anyway."""
PER_ZIP_ATTACKS = ("read_secrets", "stat_hidden_files", "write_results", "memory_children",
                   "memory_copy_on_write")
"""The attacks whose target differs from one zip to the next, run in every image; the
whole hostile corpus runs in hw1's, the assignment it is written for."""
PER_ZIP_MODE = "uid"
"""The one mode PER_ZIP_ATTACKS run in beyond hw1's image: the weaker wall (landlock mode
is the same uids and permissions with Landlock on top)."""
SANDBOX_ATTACKS = (*PER_ZIP_ATTACKS, "busy_loop_ignoring_signals", "detached_killer", "disk_bomb",
                   "fill_disk", "fork_bomb", "kill_everything", "leave_files", "memory_bomb",
                   "network", "network_loopback_families", "read_grader_process", "read_ssh_key",
                   "signal_parents", "sysv_leftover")
"""The attacks on the sandbox (what a worker may read, write, signal, hold or reach, and
how it is stopped), which each mode defends its own way: hw1's image runs them in uid
mode too, and the rest of the corpus but PROTOCOL_ATTACKS in landlock mode only."""
PROTOCOL_ATTACKS = ("broadcast_bomb_callback", "exits", "lying_objects", "patch_comparisons",
                    "raise_everywhere", "read_template_spec", "record_grader_sources",
                    "replay_lent_attention", "reply_bomb", "reply_bomb_in_answer",
                    "reply_bomb_then_sleep", "running_mean_attention", "sleep_in_one_answer",
                    "stale_state_setter", "tensor_subclass")
"""The attacks on the grader's protocol and tests (what a worker answers, sends, or keeps
between calls), defended by the same grading code in the zip as on any machine: they run
in every sandbox mode in tests/security/test_integrity.py, and in no image here."""
UNTOUCHED_MODE = "landlock"
"""The one mode the untouched notebook runs in, in each image: its stubs raise before
they do anything a sandbox stops (the full solution and the attacks run in both)."""
BROKEN_IN = ("hw1_attention", "landlock")
"""The one image and mode a file that is not a notebook is uploaded in: it is refused by
the same code in every zip, whatever the mode, before any of it runs."""
HONEST = "honest"
"""The case every attack is weighed against: the attack's notebook without the attack."""


def _header(path: Path) -> dict:
    return dict(re.findall(r"^#\s*(expect|with|score):\s*(.+?)\s*$",
                           "\n".join(path.read_text().splitlines()[:3]), re.M))


def _notebook(cells: list[str]) -> bytes:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    return nbformat.writes(nb).encode()


def attacks(assignment_id: str, mode: str) -> list[Path]:
    """The attacks run in this assignment's image in this mode (PER_ZIP_ATTACKS in
    PER_ZIP_MODE beyond hw1; SANDBOX_ATTACKS in hw1's uid mode; all but PROTOCOL_ATTACKS
    in its landlock mode)."""
    found = sorted(ATTACKS.glob("*.py"))
    if assignment_id != "hw1_attention":
        return [p for p in found if p.stem in PER_ZIP_ATTACKS and mode == PER_ZIP_MODE]
    if mode == "landlock":
        return [p for p in found if p.stem not in PROTOCOL_ATTACKS]
    return [p for p in found if p.stem in SANDBOX_ATTACKS]


def _attack_source(path: Path) -> str:
    return path.read_text().replace("MEMORY_MB", "1024").replace("PORT", "9").replace(
        "OUT_GRADES", "/autograder/results/results.json")


@pytest.fixture(scope="module")
def images():
    found = container.Images(lanes=CONTAINERS_AT_ONCE)
    try:
        built = {}
        for assignment_id in ASSIGNMENTS:
            zip_path = package.write_zip(assignment_id, found.base / f"{assignment_id}.zip")
            image = found.build(zip_path, assignment_id)
            built[assignment_id] = (image, found.variant(image, f"{assignment_id}-attacks",
                                                         ATTACK_LIMITS))
        yield built
    finally:
        found.close()


@pytest.fixture(scope="module", params=[(a, m) for a in ASSIGNMENTS for m in MODES],
                ids=lambda p: f"{p[0]}-{p[1]}")
def graded(request, images):
    """Every case of one assignment in one mode: {case: container.Run}."""
    assignment_id, mode = request.param
    image, attack_image = images[assignment_id]
    record = registry.get(assignment_id)
    reference = inspect.getsource(assignment_mod.load("hw1_attention").reference)
    notebook = f"{assignment_id}.ipynb"
    cases = {"full": (image, {notebook: nbformat.writes(solution_notebook(assignment_id)).encode()})}
    attacked = attacks(assignment_id, mode)
    if attacked:
        cases[HONEST] = (attack_image, {notebook: _notebook([reference])})
    if mode == UNTOUCHED_MODE:
        cases["untouched"] = (image, {notebook: record.student_notebook.read_bytes()})
    if (assignment_id, mode) == BROKEN_IN:
        cases["broken"] = (image, {notebook: b'{"cells": [ this is not json'})
    for path in attacked:
        cells = ([reference] if _header(path).get("with") == "reference" else []) + \
            [_attack_source(path)]
        cases[path.stem] = (attack_image, {notebook: _notebook(cells)})
    secret = f"FAKE-SSH-KEY-{assignment_id}-{mode}"

    def one(case):
        chosen, files = cases[case]
        return case, chosen.run(files, {"id": 4242, "users": [{"name": "Ada", "sid": "s1"}]},
                                landlock=MODES[mode], secret=secret)
    with ThreadPoolExecutor(CONTAINERS_AT_ONCE) as pool:
        runs = dict(pool.map(one, cases))
    for case, r in runs.items():
        score = r.results["score"] if r.results else None
        print(f"{assignment_id} {mode} {case}: score {score}, {r.seconds:.1f} s, memory "
              f"{(r.resident or 0) / 2**20:.0f} MB resident at most, {(r.peak or 0) / 2**20:.0f}"
              f" MB with page cache, OOM kills {r.oom_kills}")
    return {"assignment": assignment_mod.load(assignment_id), "mode": mode, "runs": runs,
            "secret": secret}


def test_every_run_writes_results_and_names_its_mode(graded):
    """One `sandbox:` line, the expected mode's, and a results.json of Gradescope's
    schema, in every container, within Gradescope's time limit."""
    for case, r in graded["runs"].items():
        assert r.returncode == 0 and r.results is not None, (case, r.output[-3000:])
        assert len(r.mode_lines) == 1 and r.mode_lines[0].startswith(
            f"sandbox: {graded['mode']} ("), (case, r.output[-3000:])
        assert r.results["output_format"] == "text" and r.results["tests"], case
        assert r.seconds < try_zip.TIME_LIMIT, (case, r.seconds)


def test_the_full_solution_gets_full_marks_within_the_container(graded):
    r, a = graded["runs"]["full"], graded["assignment"]
    assert r.results["score"] == pytest.approx(a.max_total), r.output[-3000:]
    assert len(r.results["tests"]) == len(a.cases)
    assert r.oom_kills in (0, None)


def test_the_untouched_notebook_scores_zero(graded):
    if graded["mode"] != UNTOUCHED_MODE:
        pytest.skip(f"the untouched notebook runs in {UNTOUCHED_MODE} mode only")
    r = graded["runs"]["untouched"]
    assert r.results["score"] == 0 and len(r.results["tests"]) == len(graded["assignment"].cases)
    assert r.results["output"].startswith(handout.NOTE), r.results["output"][:500]  # said so
    assert r.oom_kills in (0, None)


def test_a_broken_file_gets_an_error_result(graded):
    """Not JSON: zero, and the student is told the notebook could not be read."""
    if (graded["assignment"].id, graded["mode"]) != BROKEN_IN:
        pytest.skip("a broken file is uploaded in {} mode in {}'s image only".format(
            BROKEN_IN[1], BROKEN_IN[0]))
    r = graded["runs"]["broken"]
    assert r.results["score"] == 0
    assert "notebook" in r.results["output"].lower(), r.results["output"]


def test_no_attack_earns_more_than_its_honest_score(graded):
    a, runs = graded["assignment"], graded["runs"]
    if not attacks(a.id, graded["mode"]):
        pytest.skip(f"no attack runs in {a.id}'s image in {graded['mode']} mode")
    honest = runs[HONEST].results["score"]
    assert honest == (a.max_total if a.id == "hw1_attention" else 0)
    for path in attacks(a.id, graded["mode"]):
        r = runs[path.stem]
        assert r.results["score"] <= honest, path.stem
        assert len(r.results["tests"]) == len(a.cases), (path.stem, r.results)
        if a.id == "hw1_attention":
            expect = _header(path)["expect"].split()[0]
            if expect in ("zero", "full"):
                assert r.results["score"] == (0 if expect == "zero" else honest), path.stem
            if expect == "partial":
                assert r.results["score"] < honest, path.stem


def test_every_named_attack_exists():
    """PER_ZIP_ATTACKS, SANDBOX_ATTACKS and PROTOCOL_ATTACKS name attacks of the corpus
    (a renamed attack is not dropped silently from hw4's and hw6's images or from hw1's
    uid mode), and no attack on the sandbox is taken for one on the protocol."""
    assert {p.stem for p in attacks("hw4_bert_finetuning", PER_ZIP_MODE)} == set(PER_ZIP_ATTACKS)
    assert not attacks("hw6_encoder_decoder", "landlock") and PER_ZIP_MODE in MODES
    assert {p.stem for p in attacks("hw1_attention", "uid")} == set(SANDBOX_ATTACKS)
    every = {p.stem for p in ATTACKS.glob("*.py")}
    assert set(PROTOCOL_ATTACKS) <= every and not set(PROTOCOL_ATTACKS) & set(SANDBOX_ATTACKS)


def test_nothing_secret_reaches_any_result(graded):
    secrets = [*leaks.secret_lines(), graded["secret"], "grading_config/",
               "/autograder/source/autograder"]
    for case, r in graded["runs"].items():
        text = json.dumps(r.results)
        assert not [s for s in secrets if s in text], case

