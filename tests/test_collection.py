"""Does the README's test command collect every test module under tests/?

pytest skips some folders by default (`build`, `dist`, `venv`, ...): a test module
there is never run, and nothing says so. tests/build/ went uncollected that way. This
guard collects the suite with the project's configuration, as `bash scripts/test.sh`
does, and lists every file under the test paths that matches `python_files` but was
not collected."""
from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

# Heavy (collects and runs the suite in subprocesses): the fast tier, -m 'not heavy', skips it.
pytestmark = pytest.mark.heavy

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_PYTHON_FILES = ["test_*.py", "*_test.py"]


def _options(root: Path) -> dict:
    return tomllib.loads((root / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]


def modules_under_testpaths(root: Path) -> set[str]:
    """Every file under the test paths that pytest would import as a test module."""
    options = _options(root)
    patterns = options.get("python_files", DEFAULT_PYTHON_FILES)
    found = set()
    for top in options.get("testpaths", ["."]):
        for path in (root / top).rglob("*.py"):
            if any(fnmatch.fnmatch(path.name, p) for p in patterns):
                found.add(path.relative_to(root).as_posix())
    return found


def collected_modules(root: Path) -> set[str]:
    """The modules `pytest --collect-only` collects in `root` with its own configuration."""
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist"],
                         cwd=root, capture_output=True, text=True, timeout=300)
    assert run.returncode in (0, 5), run.stdout[-3000:] + run.stderr[-3000:]
    return {m.group(1) for m in re.finditer(r"^([^\s:]+\.py)::", run.stdout, re.M)}


def uncollected(root: Path) -> list[str]:
    return sorted(modules_under_testpaths(root) - collected_modules(root))


def test_every_test_module_is_collected():
    assert modules_under_testpaths(ROOT), "no test module found: the guard itself is broken"
    assert uncollected(ROOT) == []


def _planted(root: Path, pyproject: str) -> Path:
    """A project whose tests sit in ok/, build/ and dist/ folders, one test each."""
    (root / "pyproject.toml").write_text(pyproject)
    for folder in ("ok", "build", "dist"):
        (root / "tests" / folder).mkdir(parents=True)
        (root / "tests" / folder / f"test_{folder}.py").write_text("def test_one():\n    assert True\n")
    return root


def test_guard_fails_on_a_build_or_dist_folder_under_pytest_defaults(tmp_path):
    root = _planted(tmp_path, '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n')
    assert uncollected(root) == ["tests/build/test_build.py", "tests/dist/test_dist.py"]


def test_project_configuration_collects_build_and_dist_folders(tmp_path):
    root = _planted(tmp_path, (ROOT / "pyproject.toml").read_text())
    assert modules_under_testpaths(root) == {"tests/ok/test_ok.py", "tests/build/test_build.py",
                                  "tests/dist/test_dist.py"}
    assert uncollected(root) == []


def _run_planted(root: Path, module: str, *args: str) -> subprocess.CompletedProcess:
    """pytest with `args` on a project holding this suite's pyproject and conftest and
    one test module, `tests/test_planted.py` (its source: `module`)."""
    (root / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    (root / "tests").mkdir()
    (root / "tests" / "conftest.py").write_text((ROOT / "tests" / "conftest.py").read_text())
    (root / "tests" / "test_planted.py").write_text(module)
    run = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                         cwd=root, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run


GROUPED_MODULE = '''
import os
import pytest

@pytest.fixture(scope="module")
def made(tmp_path_factory):
    return os.environ["PYTEST_XDIST_WORKER"]

@pytest.mark.parametrize("n", range(6))
def test_shares(made, n):
    assert made == os.environ["PYTEST_XDIST_WORKER"]

@pytest.mark.parametrize("n", range(6))
def test_alone(n):
    pass

@pytest.fixture(scope="module", params=["a", "b"])
def per(request):
    with open(f"made-{request.param}", "a") as f:  # in the run's folder: made once each?
        f.write(os.environ["PYTEST_XDIST_WORKER"] + " ")
    return os.environ["PYTEST_XDIST_WORKER"]

@pytest.mark.parametrize("n", range(3))
def test_per(per, n):
    assert per == os.environ["PYTEST_XDIST_WORKER"]
'''


def test_tests_sharing_a_module_fixture_run_on_one_worker(tmp_path):
    """The suite's conftest groups tests by their shared fixtures; under `--dist
    loadgroup` each group runs on one worker (so its module fixture is made once, each
    parameter of a parametrized one too, all of them on the worker its tests run on),
    and tests without one spread over the workers."""
    run = _run_planted(tmp_path, GROUPED_MODULE, "-n", "2", "--dist", "loadgroup", "-v")
    ran = re.findall(r"^\[(gw\d)\].*PASSED (\S+)", run.stdout, re.M)
    shares = {(worker, nodeid) for worker, nodeid in ran if "test_shares" in nodeid}
    assert len(shares) == 6 and all(re.search(r"\]@\S*test_planted:made$", n) for _, n in shares)
    assert len({worker for worker, _ in shares}) == 1, shares
    assert len([n for _, n in ran if "test_alone" in n and "@" not in n]) == 6
    # a parametrized module fixture: one group, each parameter made once
    per = {(worker, nodeid) for worker, nodeid in ran if "test_per" in nodeid}
    assert len(per) == 6 and all(n.endswith("test_planted:per") for _, n in per), per
    assert len({worker for worker, _ in per}) == 1, per
    for param in "ab":
        assert (tmp_path / f"made-{param}").read_text().split() == [next(iter(per))[0]]


TIERED_MODULE = '''
import pytest

@pytest.mark.slow
def test_slow():
    pass

@pytest.mark.heavy
def test_heavy():
    pass

def test_light():
    pass
'''


def test_the_fast_tier_skips_slow_and_heavy_tests(tmp_path):
    """`-m 'not heavy'` (the README's fast tier) deselects a test marked heavy and one
    marked only slow (the conftest marks every slow test heavy), and keeps the rest."""
    run = _run_planted(tmp_path, TIERED_MODULE, "--collect-only", "-q", "-p", "no:xdist",
                       "-m", "not heavy")
    assert re.findall(r"::(test_\w+)", run.stdout) == ["test_light"], run.stdout


ORDERED_MODULE = '''
import pytest

@pytest.fixture(scope="module", params=["short", "long"])
def made(request):
    return request.param

def test_plain():
    pass

@pytest.mark.slow
@pytest.mark.parametrize("n", range(3))
def test_many(made, n):
    pass

@pytest.fixture(scope="module")
def longest():
    return 1

@pytest.mark.slow(minutes=9)
def test_longest(longest):
    pass

def test_light():
    pass

@pytest.mark.heavy
def test_heavy():
    pass

@pytest.mark.slow(minutes=2)
def test_alone_but_slow():
    pass
'''


def test_slow_groups_start_first_the_longest_first(tmp_path):
    """The groups holding a slow test go first, the one its `slow(minutes=N)` says is
    longest first (then the larger; a test in no group is a group of its own), so that it
    does not start last on a busy worker; then heavy tests, then the rest as collected."""
    run = _run_planted(tmp_path, ORDERED_MODULE, "-n", "1", "--dist", "loadgroup",
                       "--no-loadscope-reorder", "-v")
    ran = re.findall(r"PASSED \S+::(test_\w+)\[?([\w-]*)", run.stdout)
    assert [name for name, _ in ran] == ["test_longest", "test_alone_but_slow",
                                         *["test_many"] * 6, "test_heavy", "test_plain",
                                         "test_light"], ran
