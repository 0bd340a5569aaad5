"""Is IPython syntax in submitted notebooks handled as the student expects?"""
from autograder.engine.notebook import NotebookError, read_cells, translate

import json
import pytest


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
