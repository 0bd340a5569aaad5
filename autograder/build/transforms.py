"""Small notebook transforms, applied in order by `build` (nbgrader style).

Each transform is a callable named as a command, taking an nbformat
NotebookNode and returning it (changed in place or a new one). They carry no
state beyond their arguments, so a pipeline is a plain list.
"""
from __future__ import annotations

import re

import nbformat

SOLUTION_MARKER = re.compile(r"^\s*#\s*(BEGIN|END) SOLUTION\b.*$")
SOLUTION_SUFFIX = re.compile(r"\s*#\s*SOLUTION(\s+NO PROMPT)?\s*$")
SECRET_PATTERNS = (  # text that must never reach a student notebook
    re.compile(r"#\s*(BEGIN|END) SOLUTION"),
    re.compile(r"#\s*SOLUTION\b"),
    re.compile(r"otter_assign_solution_cell"),
    re.compile(r"#\s*(BEGIN|END) (HIDDEN )?TESTS?"),
    re.compile(r"hidden\s*=\s*True"),
)


class BuildError(Exception):
    """The master notebook or the built notebook is not as it must be."""


class ClearOutputs:
    """Drop every output and execution count (a built notebook was never run)."""

    def __call__(self, nb):
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.outputs = []
                cell.execution_count = None
        return nb


class KeepCellMetadata:
    """Keep only the cell metadata Jupyter and otter use (locks and tags);
    jupytext's layout hints and any timestamps go."""

    def __init__(self, keys=("deletable", "editable", "tags")):
        self.keys = keys

    def __call__(self, nb):
        for cell in nb.cells:
            cell.metadata = nbformat.NotebookNode(
                {k: cell.metadata[k] for k in self.keys if k in cell.metadata})
        return nb


class KeepNotebookMetadata:
    """Keep the kernel and otter's metadata (the public tests live there)."""

    def __init__(self, keys=("kernelspec", "language_info", "otter")):
        self.keys = keys

    def __call__(self, nb):
        nb.metadata = nbformat.NotebookNode(
            {k: nb.metadata[k] for k in self.keys if k in nb.metadata})
        return nb


class StripSolutionMarkers:
    """Keep solutions but drop the `# BEGIN/END SOLUTION` lines and
    `# SOLUTION` suffixes around them (the solution notebook)."""

    def __call__(self, nb):
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            lines = [SOLUTION_SUFFIX.sub("", line) for line in cell.source.split("\n")
                     if not SOLUTION_MARKER.match(line)]
            cell.source = "\n".join(lines)
            tags = [t for t in cell.metadata.get("tags", []) if t != "otter_assign_solution_cell"]
            if tags:
                cell.metadata["tags"] = tags
            else:
                cell.metadata.pop("tags", None)
        return nb


class StableCellIds:
    """Number the cells (`cell-000`, ...): nbformat and jupytext draw random
    ids. Run after every transform that adds or removes cells."""

    def __call__(self, nb):
        nb.nbformat, nb.nbformat_minor = 4, 5
        for index, cell in enumerate(nb.cells):
            cell.id = f"cell-{index:03d}"
        return nb


SETUP_CELL = """\
# Setup: run this cell first. Where otter-grader is missing (Google Colab, a fresh Python)
# it installs the version the course uses; while grading, nothing is installed.
try:
    import otter
except ImportError:
    import subprocess
    import sys
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "{requirement}"],
                   check=True)
    import otter
import os
import sys
if "google.colab" in sys.modules and not os.path.isdir("tests"):
    # Colab keeps this notebook off the disk: copy it there, its public checks in tests/.
    import json
    from google.colab import _message
    notebook = _message.blocking_request("get_ipynb")["ipynb"]
    with open("{notebook}", "w") as f:
        json.dump(notebook, f)
    os.makedirs("tests")
    for name, source in notebook["metadata"]["otter"]["tests"].items():
        with open(os.path.join("tests", name + ".py"), "w") as f:
            f.write(source)
grader = otter.Notebook("{notebook}")"""


class InstallOtter:
    """Make otter's init cell (`import otter; grader = otter.Notebook(...)`) install
    otter-grader at `requirement` where it is missing, so that the notebook runs on a
    stock Python (Colab's) with no other step. The grader's worker provides its own
    `otter`, so the install branch never runs there."""

    def __init__(self, requirement: str):
        self.requirement = requirement

    def __call__(self, nb):
        for cell in nb.cells:
            found = re.search(r'^grader = otter\.Notebook\(("[^"]+")\)$', cell.source, re.M)
            if cell.cell_type == "code" and "import otter" in cell.source and found:
                cell.source = SETUP_CELL.format(requirement=self.requirement,
                                                notebook=found.group(1).strip('"'))
                return nb
        raise BuildError("otter's init cell (import otter; grader = otter.Notebook(...)) "
                         "is missing: set init_cell: true in the ASSIGNMENT CONFIG")


EXPORT_ON_COLAB = """\
if "google.colab" in sys.modules:  # otter cannot export from Colab
    print("On Colab, save the notebook, then File > Download > Download .ipynb, "
          "and upload that file.")
else:
    {export}"""


class ExportOffColab:
    """Otter's export cell raises on Colab (the notebook is not on its disk): there it
    says how to download the notebook instead. `sys` comes from the setup cell."""

    def __call__(self, nb):
        for cell in nb.cells:
            found = re.search(r"^grader\.export\(.*\)$", cell.source, re.M)
            if cell.cell_type == "code" and found:
                cell.source = cell.source.replace(
                    found.group(0), EXPORT_ON_COLAB.format(export=found.group(0)))
        return nb


class ShareAnswerFormats:
    """Put `source` (exam/formats.py: the accepted types of short answers) into each
    public test file that calls answer_problem, so that the notebook's checks accept
    exactly what the hidden tests accept."""

    def __init__(self, source: str):
        self.source = source

    def __call__(self, nb):
        tests = nb.metadata.get("otter", {}).get("tests", {})
        for name, text in tests.items():
            if isinstance(text, str) and "answer_problem(" in text:
                head, sep, rest = text.partition("from otter.test_files import test_case\n")
                tests[name] = head + sep + "\n" + self.source + "\n" + rest
        return nb


def pinned(name: str, requirements: str) -> str:
    """The `name==version` line of a requirements file's text (BuildError without one)."""
    for line in requirements.splitlines():
        spec = line.split("#", 1)[0].strip()
        if re.fullmatch(rf"{re.escape(name)}==[\w.]+", spec):
            return spec
    raise BuildError(f"requirements.txt pins no version of {name} (name==version)")


class CheckNoSecrets:
    """Refuse a student notebook holding solution markers, solution cells or
    hidden tests (in a cell or in the public tests in the metadata)."""

    def __call__(self, nb):
        texts = [cell.source for cell in nb.cells]
        tests = nb.metadata.get("otter", {}).get("tests", {})
        texts += [t if isinstance(t, str) else repr(t) for t in tests.values()]
        for text in texts:
            for pattern in SECRET_PATTERNS:
                if pattern.search(text):
                    raise BuildError(f"the student notebook would contain {pattern.pattern!r}")
        return nb


def apply(nb, pipeline):
    for transform in pipeline:
        nb = transform(nb)
    return nb


def serialise(nb) -> bytes:
    """Canonical bytes: validated, keys sorted, one-space indent, final newline."""
    nbformat.validate(nb)
    return (nbformat.writes(nb, version=4).rstrip("\n") + "\n").encode("utf-8")


# Order matters: metadata is filtered before ids are numbered, and the
# secrets check runs on the final notebook. InstallOtter, ExportOffColab and
# ShareAnswerFormats go first, added by autograder.build.course_transforms.
STUDENT_PIPELINE = [ClearOutputs(), KeepCellMetadata(), KeepNotebookMetadata(),
                    StableCellIds(), CheckNoSecrets()]
SOLUTION_PIPELINE = [StripSolutionMarkers(), ClearOutputs(), KeepCellMetadata(),
                     KeepNotebookMetadata(), StableCellIds()]
