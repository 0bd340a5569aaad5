"""When do students see their results on Gradescope? The grading config's
[gradescope] table sets results.json's top-level visibility (the notes and the
total) and the visibility of tests that give none; without it, both stay
"after_published", as before."""
from __future__ import annotations

import json
import shutil

import pytest

from autograder import paths
from autograder.engine import config as config_mod
from tests.conftest import grade

ASSIGNMENT = "hw6_encoder_decoder"


@pytest.fixture
def configs(tmp_path, monkeypatch):
    """A copy of grading_config/ that the test may change; write(text) appends to hw6's."""
    folder = tmp_path / "grading_config"
    shutil.copytree(paths.CONFIG, folder)
    monkeypatch.setattr(paths, "CONFIG", folder)

    def write(extra: str):
        path = folder / f"{ASSIGNMENT}.toml"
        path.write_text(path.read_text() + "\n" + extra)
    return write


def _results_json(tmp_path) -> dict:
    subs = tmp_path / "subs"
    subs.mkdir()
    shutil.copy(paths.ROOT / "examples" / ASSIGNMENT / "full_solution.ipynb", subs / "ada.ipynb")
    grade(ASSIGNMENT, subs, tmp_path / "out")
    return json.loads((tmp_path / "out" / "ada" / "results.json").read_text())


def _configured_visible() -> set[str]:
    config = config_mod.load(ASSIGNMENT)
    return {f"{q}: {name}" for q, cases in config.tests.items()
            for name, tp in cases.items() if tp.visibility == "visible"}


def test_default_is_after_published(configs, tmp_path):
    """No [gradescope] table: the notes and total after publishing; tests given as a
    bare number after publishing too; those the config marks visible, visible."""
    written = _results_json(tmp_path)
    assert written["visibility"] == "after_published"
    shown = [t for t in written["tests"] if t["visibility"] == "visible"]
    assert len(shown) == len(_configured_visible()) > 0
    assert {t["visibility"] for t in written["tests"]} == {"visible", "after_published"}


def test_instructor_shows_results_at_once(configs, tmp_path):
    """[gradescope] results = "visible", tests = "visible": results.json says so at
    the top and on every test (so no test hides the total)."""
    configs('[gradescope]\nresults = "visible"\ntests = "visible"\n')
    written = _results_json(tmp_path)
    assert written["visibility"] == "visible"
    assert {t["visibility"] for t in written["tests"]} == {"visible"}
    assert written["score"] == 24.5


def test_results_at_once_keeps_each_tests_own_visibility(configs, tmp_path):
    """results = "visible" alone: the notes at once; a test's own setting is kept."""
    configs('[gradescope]\nresults = "visible"\n')
    written = _results_json(tmp_path)
    assert written["visibility"] == "visible"
    assert {t["visibility"] for t in written["tests"]} == {"visible", "after_published"}


@pytest.mark.parametrize("table, message", [
    ('results = "sometimes"', "results must be one of"),
    ('tests = true', "tests must be one of"),
    ('total = "visible"', "holds `results` and `tests` only"),
])
def test_a_wrong_setting_is_refused(configs, table, message):
    configs(f"[gradescope]\n{table}\n")
    with pytest.raises(config_mod.ConfigError, match=message):
        config_mod.load(ASSIGNMENT)
