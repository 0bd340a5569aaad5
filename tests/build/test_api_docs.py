"""docs/testing-api.md, the reference of autograder.testing: its `>>>` examples run
as they are written, every public name is there with its current signature, and
each example quoted from a hidden test is still in the file it names."""
from __future__ import annotations

import doctest
import inspect
import re
from pathlib import Path

import autograder.testing
from autograder import paths

DOC = paths.ROOT / "docs" / "testing-api.md"
AUTHORING = paths.ROOT / "docs" / "authoring.md"
QUOTED = re.compile(r"`([\w/]+\.py)`:\n\n```python\n(.*?)```", re.S)


def heading(name: str) -> str:
    """How the reference heads `name`: a function with its parameters and defaults."""
    value = inspect.unwrap(getattr(autograder.testing, name))
    if not inspect.isfunction(value):
        return name
    shown = []
    for p in inspect.signature(value).parameters.values():
        text = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "") + p.name
        if p.default is not p.empty:
            text += "=" + ("..." if callable(p.default) else repr(p.default))
        shown.append(text)
    return f"{name}({', '.join(shown)})"


def test_every_example_runs_as_written():
    failed, tried = doctest.testfile(str(DOC), module_relative=False, verbose=False,
                                     optionflags=doctest.ELLIPSIS)
    assert tried > 30 and failed == 0


def test_every_name_is_documented_with_its_signature():
    text = DOC.read_text()
    headed = set(re.findall(r"^### (.+)$", text, re.M))
    names = {n for h in headed for n in re.findall(r"`(\w+)", h)}
    assert set(autograder.testing.__all__) <= names
    for name in autograder.testing.__all__:
        if "(" in heading(name):
            assert f"`{heading(name)}`" in text, heading(name)


def test_every_name_is_in_exactly_one_group():
    """__all__ is the basics and the advanced: a name in neither, or in both, is caught."""
    basics, advanced = autograder.testing.BASICS, autograder.testing.ADVANCED
    assert len(set(basics)) == len(basics) and len(set(advanced)) == len(advanced)
    assert not set(basics) & set(advanced)
    assert autograder.testing.__all__ == [*basics, *advanced]
    # and every name it imports is exported (ruff's F401 cannot read __all__ built this way)
    imported = {n for n, v in vars(autograder.testing).items()
                if not n.startswith("_") and n not in ("annotations", "BASICS", "ADVANCED")}
    assert imported == set(autograder.testing.__all__), imported ^ set(autograder.testing.__all__)


def test_the_docs_show_the_same_two_groups():
    """testing-api.md heads each name in its group's part; authoring.md's two bullets
    name each in its group's."""
    text = DOC.read_text()
    basics, advanced = text.split("\n# The advanced\n")
    assert "\n# The basics\n" in basics
    for part, group in ((basics, autograder.testing.BASICS),
                        (advanced, autograder.testing.ADVANCED)):
        names = {n for h in re.findall(r"^### (.+)$", part, re.M) for n in re.findall(r"`(\w+)", h)}
        assert set(group) <= names, set(group) - names
    bullets = AUTHORING.read_text().split("whose `__all__` is two groups", 1)[1]
    bullets = bullets.split("\n\n")[1].split("\n* ")
    assert bullets[0].startswith("* `BASICS`") and bullets[1].startswith("`ADVANCED`")
    exported = set(autograder.testing.__all__)
    for bullet, group in zip(bullets, (autograder.testing.BASICS, autograder.testing.ADVANCED)):
        named = set(re.findall(r"`(\w+)", bullet)) & exported
        assert named <= set(group), named - set(group)


def test_each_quoted_example_is_still_in_its_file():
    quoted = QUOTED.findall(DOC.read_text())
    assert len(quoted) >= 10
    for path, block in quoted:
        lines = [line.strip() for line in (paths.ROOT / path).read_text().splitlines()]
        for line in filter(None, (b.strip() for b in block.splitlines())):
            assert line in lines, (path, line)


def test_a_stale_example_or_signature_is_caught(tmp_path):
    """The checks above can fail: a changed output and a missing parameter are found."""
    stale = tmp_path / "stale.md"
    stale.write_text(DOC.read_text().replace("    1e-06\n", "    1e-07\n"))
    failed, _ = doctest.testfile(str(stale), module_relative=False, verbose=False,
                                 report=False)
    assert failed >= 1
    assert heading("expect_close") == ("expect_close(actual, expected, what, rtol=1e-05, "
                                       "atol=1e-06, equal_nan=False)")
    assert Path(DOC).read_text().count("### `") >= 35
