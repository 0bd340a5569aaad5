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
import glob
import json
import os
import sys
import time
import warnings
if "google.colab" in sys.modules and not os.path.isdir("tests"):
    # Colab keeps this notebook off the disk: copy it there, its public checks in tests/.
    from google.colab import _message
    notebook = _message.blocking_request("get_ipynb")["ipynb"]
    with open("{notebook}", "w") as f:
        json.dump(notebook, f)
    os.makedirs("tests")
    for name, source in notebook["metadata"]["otter"]["tests"].items():
        with open(os.path.join("tests", name + ".py"), "w") as f:
            f.write(source)


def this_notebook():
    \"\"\"(path, how it was found) of the file of this notebook, whatever its name and
    folder, or (None, why not): the path Jupyter (Lab, Notebook 7) or VS Code gives
    the kernel, else the only notebook in this folder; never on Colab, which keeps
    the notebook off this disk.\"\"\"
    if "google.colab" in sys.modules:
        return None, "on Colab this notebook is not on the disk"
    told = [("VS Code", globals().get("__vsc_ipynb_file__")),
            ("Jupyter", globals().get("__session__")),
            ("Jupyter", os.environ.get("JPY_SESSION_NAME"))]
    gone = ""
    for how, path in told:
        if isinstance(path, str) and path.endswith(".ipynb"):
            for candidate in (path, os.path.basename(path)):  # a path from Jupyter's root
                if os.path.isfile(candidate):
                    return candidate, f"the notebook {{how}} has open"
            gone = f" ({{how}} named {{os.path.basename(path)}}, gone since: renamed?)"
    here = sorted(glob.glob("*.ipynb"))
    if len(here) == 1:
        return here[0], "the only notebook in this folder"
    if not here:
        return None, f"this folder ({{os.getcwd()}}) holds no notebook{{gone}}"
    return None, (f"this folder holds {{len(here)}} notebooks ({{', '.join(here[:4])}}) and "
                  f"Jupyter did not tell which one is open here{{gone}}")


def _checks_file():
    \"\"\"A file holding the public checks: this notebook's, else any copy of it here.\"\"\"
    path, why = this_notebook()
    copies = sorted(glob.glob("*.ipynb"), key=os.path.getmtime, reverse=True)
    for candidate in ([path] if path else []) + copies:
        try:
            with open(candidate, encoding="utf-8") as f:
                if "{question}" in json.load(f)["metadata"]["otter"]["tests"]:
                    return candidate
        except (OSError, ValueError, KeyError, TypeError):
            pass
    print(f"The public checks could not be found: {{why}}. Open this notebook from the "
          "folder it is saved in, or put it in a folder of its own, and rerun this cell.")
    return None


grader = otter.Notebook(_checks_file())
try:  # a failing check shows its message, not a line of a test file you never see
    from otter.test_files.exception_test import ExceptionTestFile

    def _check_message(self, excp, context=0):
        try:
            check = excp.__traceback__.tb_next.tb_next  # the check's own frame
            line = self.source_lines[check.tb_lineno - 1].strip()
        except (AttributeError, IndexError):
            return f"{{type(excp).__name__}}: {{excp}}"
        raised = check
        while raised.tb_next is not None:
            raised = raised.tb_next
        # the check's own assert speaks for itself; any other error (an assert in your
        # code among them) is named with the line of the check that ran into it
        if raised is check and isinstance(excp, AssertionError) and str(excp):
            return str(excp).strip("'")
        return f"{{type(excp).__name__}}: {{excp}} (raised by: {{line}})"
    ExceptionTestFile._generate_error_message = _check_message
except ImportError:  # the grader's own otter: its messages come from the hidden tests
    pass
if "_last_run" not in globals():  # when a cell last finished running (IPython only)
    _last_run = [time.time()]
    try:
        get_ipython().events.register("post_run_cell",
                                      lambda *args: _last_run.__setitem__(0, time.time()))
    except NameError:
        pass


def _code_cells(path):
    \"\"\"The code cells of the notebook file `path`, whitespace-normalised.\"\"\"
    try:
        with open(path, encoding="utf-8") as f:
            cells = json.load(f)["cells"]
        return {{" ".join("".join(c["source"]).split()) for c in cells
                if c["cell_type"] == "code"}}
    except (OSError, ValueError, KeyError, TypeError):
        return set()


def _judge_by_code_run(path, count=5):
    \"\"\"Judge `path`, the file to pack, by the code this kernel ran: IPython's record
    of the cells run (In), whitespace aside, leaving out this cell, empty cells and
    cells with magics. Returns (how many of the last `count` cells run `path` lacks,
    the notebook to pack instead or None). Another notebook in its folder is to be
    packed instead when it was saved after `path` and holds more of the last `count`
    cells run that only one of the two holds: after Save As, Jupyter still names the
    old file to the kernel. Run cells, save, export never finds one (`path` is then
    the newest notebook); nor does a cell changed after it ran, while `path` holds the
    rest. Outside IPython: (0, None).\"\"\"
    try:
        ran = get_ipython().user_ns["In"][:-1]
    except (NameError, AttributeError, KeyError):
        return 0, None
    recent = []  # most recent first, each once
    for code in reversed(ran):
        code = " ".join(code.split())
        if code and "get_ipython()" not in code and code not in recent:
            recent.append(code)
    mine = _code_cells(path)
    if all(code in mine for code in recent):
        return 0, None
    folder, best, lead = os.path.dirname(path), None, 0
    for name in os.listdir(folder or "."):
        other = os.path.join(folder, name)
        if (name.endswith(".ipynb") and name != os.path.basename(path) and
                os.path.isfile(other) and os.path.getmtime(other) > os.path.getmtime(path)):
            theirs = _code_cells(other)
            telling = [code in theirs for code in recent
                       if (code in mine) != (code in theirs)][:count]
            if 2 * sum(telling) - len(telling) > lead:  # they hold more of these than path
                best, lead = other, 2 * sum(telling) - len(telling)
    return sum(code not in mine for code in recent[:count]), best


def export_submission(path=None, **options):
    \"\"\"Zip `path` (this notebook's file when None) for submission, as grader.export does.\"\"\"
    how = "the file you named"
    if path is None:
        path, how = this_notebook()
    if path is None and "google.colab" in sys.modules:
        print("NOT EXPORTED: otter cannot pack a notebook on Colab. Save the notebook, "
              "then File > Download > Download .ipynb, and upload that file.")
        return
    if path is None or not os.path.isfile(path):
        print(f"NOT EXPORTED: {{how if path is None else path + ' does not exist'}}, so the "
              f"zip could hold another file than the one you edited (otter would pack "
              f"{notebook}). Run export_submission(\\"YOUR FILE NAME.ipynb\\") in a "
              "new cell, naming this notebook's file as its tab shows it, or keep only "
              "this notebook in its folder.")
        return
    lacking, instead = _judge_by_code_run(path)
    if instead and how != "the file you named":  # a file named by the student is packed
        in_cwd = os.path.dirname(os.path.abspath(instead)) == os.getcwd()
        call = json.dumps(os.path.basename(instead) if in_cwd else instead, ensure_ascii=False)
        print(f"NOT EXPORTED: {{path}} ({{how}}) does not hold the code you ran last, and "
              f"{{instead}}, saved later, does: after Save As or Rename, Jupyter still names "
              "the file this notebook had when its kernel started. If that is the file you "
              f"are editing, run export_submission({{call}}) in a new cell; else save this "
              "notebook (File > Save, Ctrl+S) and run this cell again.")
        return
    saved = os.path.getmtime(path)
    if saved < _last_run[0]:
        saved, ran = (time.strftime("%H:%M:%S", time.localtime(t))
                      for t in (saved, _last_run[0]))
        print(f"Warning: {{path}} was last saved at {{saved}}, before the last cell you ran "
              f"(at {{ran}}): the zip holds the file as saved. If you changed a cell since, "
              "save (File > Save, Ctrl+S) and run this cell again.")
    if lacking:
        print(f"Warning: {{path}} does not hold the code you ran last ({{lacking}} of the last "
              f"cells you ran, as they ran{{'; ' + instead + ' holds more' if instead else ''}}): "
              "the zip holds the file as saved. Save first (File > Save, Ctrl+S), rerun any "
              "cell you changed since it ran, and run this cell again.")
    folder, name = os.path.split(os.path.abspath(path))
    here = os.getcwd()
    os.chdir(folder)  # otter zips the notebook under the name it is given
    try:
        # otter's check re-runs the notebook in a subprocess and warns with all its stderr:
        # the kernel's own log (a TCP notice, a traceback when it is shut down under
        # load), noise to a student whose zip is fine. It is shown only if the export fails.
        with warnings.catch_warnings(record=True) as kernel_log:
            warnings.filterwarnings("always", category=RuntimeWarning,
                                    module=r"otter\\.check\\.utils")
            try:
                grader.export(name, **options)
            except BaseException:
                for w in kernel_log:
                    print(w.message, file=sys.stderr)
                raise
        for w in kernel_log:
            if not (w.category is RuntimeWarning
                    and w.filename.endswith(os.path.join("otter", "check", "utils.py"))):
                warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    finally:
        os.chdir(here)
    print(f"Packed {{os.path.join(folder, name)}} ({{how}}).")"""


class InstallOtter:
    """Make otter's init cell (`import otter; grader = otter.Notebook(...)`) install
    otter-grader at `requirement` where it is missing, so that the notebook runs on a
    stock Python (Colab's) with no other step. The grader's worker provides its own
    `otter`, so the install branch never runs there.

    The cell also finds the notebook's own file whatever its name and folder (a
    duplicate, a second download, `hw1_attention (1).ipynb`): the path Jupyter
    (JPY_SESSION_NAME, `__session__`) or VS Code (`__vsc_ipynb_file__`) gives the
    kernel, else the only notebook in the folder; the public checks read any copy of
    the notebook (they are in its metadata), `export_submission` only that file, and
    refuses, saying why, when it cannot tell which file is open, or when a notebook
    saved later beside it holds the code the kernel ran last and it does not (after
    Save As, Jupyter still names the old file: `_judge_by_code_run`). A failing check
    prints its message without otter's "Error at line N in test ..." header."""

    def __init__(self, requirement: str):
        self.requirement = requirement

    def __call__(self, nb):
        for cell in nb.cells:
            found = re.search(r'^grader = otter\.Notebook\(("[^"]+")\)$', cell.source, re.M)
            if cell.cell_type == "code" and "import otter" in cell.source and found:
                tests = nb.metadata.get("otter", {}).get("tests", {})
                cell.source = SETUP_CELL.format(requirement=self.requirement,
                                                notebook=found.group(1).strip('"'),
                                                question=next(iter(tests), ""))
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
    says how to download the notebook instead. Elsewhere it packs the notebook's own
    file (`export_submission` of the setup cell, which also gives `sys`), not the
    file named as the handout."""

    def __call__(self, nb):
        for cell in nb.cells:
            found = re.search(r"^grader\.export\((.*)\)$", cell.source, re.M)
            if cell.cell_type == "code" and found:
                export = f"export_submission({found.group(1)})"
                cell.source = cell.source.replace(
                    found.group(0), EXPORT_ON_COLAB.format(export=export))
        return nb


CHECK_CALL = re.compile(r'grader\.check\("([^"]+)"\)')
QUESTION_HEAD = re.compile(r"^\*\*(Question\b[^*]*?)\.?\*\*")
STATED_POINTS = re.compile(r"\(\d+(?:\.\d+)?\s+points?\)")


def points_text(points: float) -> str:
    return f"({points:g} point{'' if points == 1 else 's'})"


class WritePoints:
    """Say each question's points beside it, from the grading config (the only place
    points live): "**Question 1 (4 points).**" in the locked prompt before its
    `grader.check` cell, or before a free-response marker; a prompt that already
    states them (checked against the config by build.points) is left as it is."""

    def __init__(self, points: dict[str, float]):
        self.points = points

    def __call__(self, nb):
        for index, cell in enumerate(nb.cells):
            found = CHECK_CALL.fullmatch(cell.source.strip())
            if cell.cell_type == "code" and found and found.group(1) in self.points:
                self._write(self.prompt(nb.cells, index), self.points[found.group(1)])
            for name, points in self.points.items():
                if cell.cell_type == "markdown" and f"<!-- free response: {name} -->" in cell.source:
                    self._write(cell, points)
        return nb

    @staticmethod
    def prompt(cells, index):
        """The prompt of the question checked by cell `index`: the locked Markdown
        cell nearest before it (otter's), else the nearest Markdown cell after the
        previous check (an unlocked question such as the exam's identity)."""
        span = []
        for cell in reversed(cells[:index]):
            if cell.cell_type == "code" and CHECK_CALL.search(cell.source):
                break
            if cell.cell_type == "markdown":
                if cell.metadata.get("editable") is False:
                    return cell
                span.append(cell)
        return span[0] if span else None

    @staticmethod
    def _write(cell, points: float) -> None:
        if cell is None or STATED_POINTS.search(cell.source):
            return
        head = QUESTION_HEAD.search(cell.source)
        if head:
            cell.source = QUESTION_HEAD.sub(f"**{head.group(1)} {points_text(points)}.**",
                                            cell.source, count=1)
        elif cell.source.startswith("#") and "\n\n" in cell.source:  # after the heading
            title, rest = cell.source.split("\n\n", 1)
            cell.source = f"{title}\n\n**{points_text(points)}** {rest}"
        else:
            cell.source = f"**{points_text(points)}** {cell.source}"


SUBMIT_SENTENCE = re.compile(r"^Run this cell to make a zip.*$", re.M)


class SubmitWhere:
    """State where to hand in, from the grading config's [submit] table, in the
    Markdown cell before the export cell (replacing the master's sentence that
    starts "Run this cell to make a zip")."""

    def __init__(self, sentence: str):
        self.sentence = sentence

    def __call__(self, nb):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code" and "export_submission(" in cell.source and index:
                before = nb.cells[index - 1]
                if before.cell_type == "markdown" and SUBMIT_SENTENCE.search(before.source):
                    before.source = SUBMIT_SENTENCE.sub(self.sentence, before.source, count=1)
                    return nb
                raise BuildError("the export cell has no instructions to replace: keep "
                                 "export_cell: instructions: \"Run this cell to make a zip "
                                 "...\" in the master's ASSIGNMENT CONFIG")
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
# secrets check runs on the final notebook. InstallOtter, ExportOffColab (before
# SubmitWhere, which finds the export cell it wrote), WritePoints and
# ShareAnswerFormats go first, added by autograder.build.course_transforms.
STUDENT_PIPELINE = [ClearOutputs(), KeepCellMetadata(), KeepNotebookMetadata(),
                    StableCellIds(), CheckNoSecrets()]
SOLUTION_PIPELINE = [StripSolutionMarkers(), ClearOutputs(), KeepCellMetadata(),
                     KeepNotebookMetadata(), StableCellIds()]
