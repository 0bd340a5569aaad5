"""A template and workers that ran a cell, for tests of the engine's side of a call."""
from __future__ import annotations

from contextlib import contextmanager

from autograder.engine.config import load
from autograder.engine.driving.runner import _cell_report
from autograder.engine.isolation.workers import Template


@contextmanager
def template_of(assignment_id: str):
    template = Template(load(assignment_id), [])
    try:
        yield template
    finally:
        template.close()


@contextmanager
def worker_that_ran(template: Template, source: str):
    """A worker of `template` whose first cell, `source`, ran without error."""
    conn = template.spawn()
    try:
        _, error = _cell_report(*conn.request({"op": "run_cell", "index": 1, "source": source}))
        assert error == "", error
        yield conn
    finally:
        conn.kill()
