"""Is IPython syntax in submitted notebooks handled as the student expects?
Are cells named the way the student finds them?"""
import inspect
import json

import nbformat
import pytest

from autograder.engine.intake.notebook import (MAX_JSON_VALUES, NotebookError, read_cells,
                                        too_many_values, translate)
from autograder.hw1_attention import reference
from tests.conftest import grade


def test_magics_are_dropped_and_timed_statements_kept():
    cells = translate(["%matplotlib inline\nx = 1\n%time y = x + 1\n  %config X=1\nhelp?",
                       "%%time\nz = 3"])
    assert cells.code[0].splitlines() == ["pass", "x = 1", "y = x + 1", "  pass", "pass"]
    assert cells.code[1] == "z = 3"
    assert not cells.notes


def test_shell_escapes_are_not_run_and_reported():
    cells = translate(["!pip install torch\nfiles = !ls\nx = 2", "%%bash\nrm -rf /"])
    assert cells.code[0].splitlines() == ["pass", "pass", "x = 2"]
    assert cells.code[1] == ""
    assert len(cells.notes) == 3


def test_ordinary_python_is_untouched():
    src = "a = 5 % 3\nb = a != 2\nc = {'!': '%'}\nif a:\n    d = 1"
    assert translate([src]).code == [src]


def test_reads_v4_and_v3_notebooks():
    v4 = {"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "x"},
                                    {"cell_type": "code", "source": ["a = 1\n", "b = 2"]}]}
    assert read_cells(json.dumps(v4).encode()).code == ["a = 1\nb = 2"]
    v3 = {"nbformat": 3, "worksheets": [{"cells": [{"cell_type": "code", "input": "c = 3"}]}]}
    assert read_cells(json.dumps(v3).encode()).code == ["c = 3"]


@pytest.mark.parametrize("raw", [b"", b"\xff\xfe", b"{", b"[]", b'{"cells": 5}'])
def test_unreadable_notebooks_raise_a_student_message(raw):
    with pytest.raises(NotebookError):
        read_cells(raw)


def test_a_notebook_that_parses_to_many_times_its_size_is_refused_unparsed():
    """Is a notebook whose metadata holds more empty lists than MAX_JSON_VALUES (2 MB
    of text that parses to 50 MB) refused with a message, and one just below read?"""
    def with_lists(count):
        nb = json.loads(_nb(("code", "a = 1")))
        nb["cells"][0]["metadata"]["x"] = "LISTS"
        return json.dumps(nb).replace('"LISTS"', "[" + ",".join(["[]"] * count) + "]").encode()
    with pytest.raises(NotebookError, match="more than 500,000 values in its outputs or metadata"):
        read_cells(with_lists(MAX_JSON_VALUES))
    assert read_cells(with_lists(MAX_JSON_VALUES - 100)).code == ["a = 1"]


def test_values_are_counted_outside_strings_only():
    """Are commas, colons and brackets inside strings (a long source line, escaped
    quotes, an unterminated string) never counted as values?"""
    many = ", ".join(["[0]: 'x'"] * MAX_JSON_VALUES)
    assert read_cells(_nb(("code", f"s = \"{many}\""))).code == [f"s = \"{many}\""]
    assert not too_many_values(b'"' + b'\\",[:' * MAX_JSON_VALUES)  # one unterminated string
    assert too_many_values(b'["a",' * (MAX_JSON_VALUES // 2) + b'1]')
    assert too_many_values(b"[" + b'["x"],' * (MAX_JSON_VALUES // 2 + 1) + b"1]")
    assert too_many_values(b',"' * (2 * MAX_JSON_VALUES + 4))  # strings only: one value per two


def test_json_nested_too_deeply_is_a_student_message():
    with pytest.raises(NotebookError, match="nested too deeply"):
        read_cells(b'{"cells": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")


def _nb(*cells):
    """Notebook bytes from (cell_type, source) pairs."""
    nb = {"nbformat": 4, "nbformat_minor": 5, "metadata": {},
          "cells": [{"cell_type": t, "source": s, "metadata": {}} for t, s in cells]}
    return json.dumps(nb).encode()


def test_cells_are_named_as_the_student_finds_them():
    """A code cell is named by its position among all cells, its section's heading and its
    first line, not by a count of code cells."""
    cells = read_cells(_nb(("code", "import otter"), ("markdown", "# Homework\n\n## Question 2: loss\ntext"),
                           ("markdown", "Some prose, no heading."), ("code", "\n\ndef loss(x):\n    pass"),
                           ("code", "")))
    assert cells.label(1) == 'cell 1 (starting "import otter")'
    assert cells.label(2) == 'cell 4 (under "Question 2: loss", starting "def loss(x):")'
    assert cells.label(3) == 'cell 5 (under "Question 2: loss", empty)'
    assert cells.label(9) == "code cell 9"  # beyond the notebook: never raises


def test_cell_names_are_cleaned_and_short():
    """Headings and first lines are the student's text: one line, bounded, no controls."""
    cells = read_cells(_nb(("markdown", "# " + "\x1b[31mred" + "x" * 500), ("code", "y = 1\x07")))
    label = cells.label(1)
    assert "\x1b" not in label and "\x07" not in label and len(label) < 160


def test_failing_cells_are_named_with_their_heading(tmp_path):
    """A failing cell's note names it the way Jupyter shows it; a bare assert says its line;
    a syntax error's own message counts cells as the note does (cell 6, not <cell 3>)."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("## Check: the mask"),
                nbformat.v4.new_code_cell(inspect.getsource(reference)),
                nbformat.v4.new_markdown_cell("## Demo"),
                nbformat.v4.new_code_cell("x = 1\nassert x == 2"),
                nbformat.v4.new_markdown_cell("## Scratch"),
                nbformat.v4.new_code_cell("y = 2\ndef f(:\n    pass")]
    subs = tmp_path / "subs"
    subs.mkdir()
    nbformat.write(nb, str(subs / "s.ipynb"))
    notes = grade("hw1_attention", subs, tmp_path / "out")["s"].notes
    assert 'cell 4 (under "Demo", starting "x = 1") raised AssertionError: (no message) ' \
           "at line 2 of the cell" in notes
    syntax = [n for n in notes if n.startswith("cell 6 ")]
    assert len(syntax) == 1 and "raised SyntaxError" in syntax[0], notes
    assert "(cell 6, line 2)" in syntax[0] and "<cell" not in syntax[0], syntax


def test_worker_cell_names_become_the_students_numbering():
    """`<cell N>` (the worker's N-th code cell) becomes the position Jupyter shows;
    a number beyond the notebook stays a code cell's count, and nothing raises."""
    cells = read_cells(_nb(("markdown", "# A"), ("code", "a = 1"), ("markdown", "b"),
                           ("code", "b = 2")))
    assert cells.renumbered("invalid syntax (<cell 2>, line 1) and <cell 1>") == \
        "invalid syntax (cell 4, line 1) and cell 2"
    assert cells.renumbered("<cell 7>") == "code cell 7"
    assert cells.renumbered("<cell 0> <cellar>") == "code cell 0 <cellar>"
