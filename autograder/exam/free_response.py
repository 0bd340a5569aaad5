"""Free-response answers, collected for manual grading.

The answers come from the cells grading kept of the submitted notebook
(SubmissionResult.cells: parsed once, as data, never run; cleaned and
bounded where they were read, engine/intake/kept_cells.py): a free-response
question is the Markdown cell holding the marker `<!-- free response: ID -->`
(its prompt), and its answer is the Markdown or raw cells that follow, up to
the next code cell, the next marker or otter's `<!-- END QUESTION -->`. Each
answer is capped, escaped everywhere it is written, and the pages forbid
scripts, so an answer holding HTML is shown as text.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from autograder.engine.intake import untrusted
from autograder.engine.intake.notebook import cell_source
from autograder.report.htmlpage import CSS, esc, table

MARKER = re.compile(r"<!--\s*free response:\s*([\w.-]+)\s*-->")
END_QUESTION = "<!-- END QUESTION -->"
PLACEHOLDER = "_Type your answer here, replacing this text._"
PRINT_CSS = """
.student { page-break-before: always; } .student:first-of-type { page-break-before: auto; }
.answer { white-space: pre-wrap; word-break: break-word; border-left: 3px solid #4c72b0;
          padding: 0.3em 0.8em; background: #fafafa; }
.prompt { color: #444; border-color: #ccc; } .flag { color: #a51d1d; font-weight: bold; }
"""
NO_SCRIPTS = ('<meta http-equiv="Content-Security-Policy" '
              'content="default-src \'none\'; style-src \'unsafe-inline\'; img-src data:">')


@dataclass(frozen=True)
class Response:
    question: str
    prompt: str
    answer: str | None
    """The student's text; None when the cell was left as handed out or is missing."""


@dataclass(frozen=True)
class Sheet:
    """One submission's page: who, their numbers, their answers."""
    submission: str
    identity: str
    flag: str
    """'' or the identity flag message."""
    numbers: dict[str, dict]
    responses: list[Response]


def extract(cells: list[dict], questions: list[str]) -> list[Response]:
    """The responses to `questions` (in that order) found in a notebook's
    cells (those grading kept: [] for a notebook that could not be read)."""
    found: dict[str, Response] = {}
    for i, cell in enumerate(cells):
        m = MARKER.search(cell_source(cell)) if cell.get("cell_type") == "markdown" else None
        if not m or m.group(1) in found:
            continue
        prompt = _clean(MARKER.sub("", cell_source(cell)))
        parts = []
        for nxt in cells[i + 1:]:
            text = cell_source(nxt)
            if nxt.get("cell_type") not in ("markdown", "raw") or MARKER.search(text):
                break
            if END_QUESTION in text:
                parts.append(text.split(END_QUESTION, 1)[0])
                break
            parts.append(text)
        answer = "\n\n".join(p.strip() for p in parts if p.strip() not in ("", PLACEHOLDER))
        found[m.group(1)] = Response(m.group(1), untrusted.text(prompt, untrusted.FREE_TEXT_CHARS),
                                     untrusted.text(answer, untrusted.FREE_TEXT_CHARS) or None)
    return [found.get(q, Response(q, "", None)) for q in questions]


def _clean(prompt: str) -> str:
    text = prompt.replace("<!-- BEGIN QUESTION -->", "").replace(END_QUESTION, "")
    return text.strip()


def _numbers_table(numbers: dict[str, dict]) -> str:
    rows = [[q, ", ".join(f"{k}={v}" for k, v in p.items() if k != "variant")]
            for q, p in numbers.items()]
    return table(["question", "this student's numbers"], rows)


def sheet_html(sheet: Sheet) -> str:
    """The body of one submission's section."""
    out = [f'<section class="student"><h1>{esc(sheet.submission)}</h1>',
           f"<p>Graded as <code>{esc(sheet.identity)}</code></p>"]
    if sheet.flag:
        out.append(f'<p class="flag">{esc(sheet.flag)}</p>')
    out.append(_numbers_table(sheet.numbers))
    for r in sheet.responses:
        out.append(f"<h2>{esc(r.question)}</h2>")
        if r.prompt:
            out.append(f'<div class="prompt answer">{esc(r.prompt)}</div>')
        out.append(f'<div class="answer">{esc(r.answer)}</div>' if r.answer is not None
                   else '<p class="muted">(no answer)</p>')
    out.append("</section>")
    return "\n".join(out)


def page(title: str, sections: list[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"{NO_SCRIPTS}\n<title>{esc(title)}</title>\n<style>{CSS}{PRINT_CSS}</style>\n"
            "</head>\n<body>\n" + "\n".join(sections) + "\n</body>\n</html>\n")


def to_pdf(html_path: Path, pdf_path: Path, timeout: float = 120.0) -> str | None:
    """Print the page with headless Chromium; None on success, else why not."""
    browser = next((shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")
                    if shutil.which(b)), None)
    if browser is None:
        return "no PDF: Chromium is not installed (the HTML file prints to PDF from any browser)"
    try:
        with tempfile.TemporaryDirectory(prefix="exam-pdf-") as profile:
            cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu",
                   "--disable-extensions", f"--user-data-dir={profile}",
                   "--no-pdf-header-footer",  # scripts: forbidden by the page's CSP
                   f"--print-to-pdf={pdf_path}", html_path.resolve().as_uri()]
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=timeout, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"no PDF: Chromium failed ({type(exc).__name__})"
    if not pdf_path.is_file() or pdf_path.stat().st_size == 0:
        return "no PDF: Chromium wrote nothing"
    return None
