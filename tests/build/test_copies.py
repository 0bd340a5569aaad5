"""autograder/build/copies.py: a master's `# build: paste NAMES from PATH` lines
become the exact text of those definitions, and nothing else is pasted."""
from __future__ import annotations

import pytest

from autograder import paths
from autograder.build import copies
from autograder.build.transforms import BuildError

SOURCE = '''"""A module."""
import math

HIDDEN = 1


@staticmethod
def first(x):  # its comment
    return math.sqrt(x)

# between
second = [
    1, 2]
third = 3
'''


@pytest.fixture
def source(tmp_path, monkeypatch):
    monkeypatch.setattr(paths, "ROOT", tmp_path)
    (tmp_path / "pkg").mkdir()
    path = tmp_path / "pkg" / "source.py"
    path.write_text(SOURCE)
    return path


def test_a_paste_line_becomes_the_definitions_as_written(source):
    master = "# %%\nimport math\n# build: paste first, second from pkg/source.py\n\n# %%\nx = 1\n"
    assert copies.filled(master) == (
        "# %%\nimport math\n@staticmethod\ndef first(x):  # its comment\n    return math.sqrt(x)\n"
        "\n# between\nsecond = [\n    1, 2]\n\n# %%\nx = 1\n")
    assert copies.sources(master) == [source]


def test_a_master_without_paste_lines_is_unchanged(source):
    master = "# %%\n#  build: paste first from pkg/source.py\nx = 1\n"
    assert copies.filled(master) == master and copies.sources(master) == []


@pytest.mark.parametrize("line, why", [
    ("# build: paste first, third from pkg/source.py", "not consecutive"),
    ("# build: paste second, first from pkg/source.py", "not consecutive"),
    ("# build: paste fourth from pkg/source.py", "no top-level definition of fourth"),
    ("# build: paste first from pkg/missing.py", "no such file"),
    ("# build: paste first from ../outside.py", "no such file"),
])
def test_a_paste_that_cannot_be_exact_is_refused(source, line, why):
    (source.parent.parent.parent / "outside.py").write_text(SOURCE)
    with pytest.raises(BuildError, match=why):
        copies.filled(f"# %%\n{line}\n")
