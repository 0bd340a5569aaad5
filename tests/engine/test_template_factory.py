"""Does each batch get a template of its own, forked by one factory per set of
preloaded modules that imported them once (engine/isolation/template_factory.py),
a factory that holds nothing but its socket and is replaced when it dies?"""
from __future__ import annotations

import os
import signal
import socket
from pathlib import Path

import pytest

from autograder import protocol
from autograder.engine import assignment as assignment_mod
from autograder.engine import batch
from autograder.engine.grader import Grader
from autograder.engine.isolation import template_factory
from autograder.engine.results import SubmissionResult
from tests.conftest import FAST_LIMITS, write_notebook

ID = "hw1_attention"


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _one_batch(tmp_path: Path, name: str) -> dict:
    """Grade one notebook in a batch of its own; what its template was."""
    folder = tmp_path / name
    folder.mkdir()
    notebook = write_notebook(folder / "s1.ipynb", ["x = 1"]).read_bytes()
    with Grader(assignment_mod.load(ID, FAST_LIMITS), [folder]) as grader:
        template = grader.template
        seen = {"pid": template.proc.pid, "parent": _parent(template.proc.pid),
                "cwd": os.readlink(f"/proc/{template.proc.pid}/cwd"),
                "scratch": str(template.scratch), "proc": template.proc}
        result = batch.grade_submission(grader, SubmissionResult("s1", ID), lambda: notebook)
    assert not result.error and len(result.tests) == len(grader.assignment.cases), result.error
    return seen


def test_every_batch_gets_a_new_template_from_one_factory(tmp_path):
    first, second = _one_batch(tmp_path, "a"), _one_batch(tmp_path, "b")
    assert first["pid"] != second["pid"]
    assert first["parent"] == second["parent"] in template_factory.pids()
    assert first["proc"].poll() is not None  # ended with its batch
    for seen in (first, second):
        assert seen["cwd"] == seen["scratch"]  # works in its own batch's folder


def test_the_factory_holds_its_socket_and_a_scrubbed_environment_only(tmp_path):
    _one_batch(tmp_path, "a")
    for pid in template_factory.pids():
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        assert {e.split(b"=", 1)[0].decode() for e in environ if e} == \
            set(template_factory.environment())
        fds = {int(fd): os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        assert [t for fd, t in fds.items() if fd > 2] and \
            all(t.startswith("socket:") for fd, t in fds.items() if fd > 2), fds
        assert len([fd for fd in fds if fd > 2]) == 1, fds
        assert os.readlink(f"/proc/{pid}/cwd") == "/"


def test_a_factory_that_died_is_replaced(tmp_path):
    _one_batch(tmp_path, "a")
    before = template_factory.pids()
    for pid in before:
        os.kill(pid, signal.SIGKILL)
    seen = _one_batch(tmp_path, "b")
    assert seen["parent"] in template_factory.pids() and seen["parent"] not in before


def test_a_folder_that_is_not_one_is_refused_and_nothing_forked(tmp_path):
    """Refused by the factory, which stays: a refusal is not a death."""
    _one_batch(tmp_path, "a")
    before = template_factory.pids()
    for folder in ("relative/folder", str(tmp_path / "missing")):
        ours, theirs = socket.socketpair()
        with pytest.raises(protocol.ProtocolError, match="refused"):
            template_factory.fork_template("numpy,torch", folder, theirs)
        theirs.close()
        assert ours.recv(1) == b""  # no template holds the other end
    assert template_factory.pids() == before
