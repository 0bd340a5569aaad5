"""Free-response answers, collected for manual grading, with whose they are.

The answers are found as course/free_text.py says (the Markdown after each
`<!-- free response: ID -->` marker, from the cells grading kept of the
submitted notebook; extract, Response and the markers are its, named here
too). Each answer is capped, escaped everywhere it is written, and the pages
forbid scripts, so an answer holding HTML is shown as text.
"""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from autograder.course.free_text import (  # noqa: F401  (this module's names, as before)
    END_QUESTION, MARKER, PLACEHOLDER, Response, extract)
from autograder.report import prompt_html
from autograder.report.htmlpage import CSS, NO_SCRIPTS, esc, table

PRINT_CSS = """
.student { page-break-before: always; } .student:first-of-type { page-break-before: auto; }
.answer { white-space: pre-wrap; word-break: break-word; border-left: 3px solid #4c72b0;
          padding: 0.3em 0.8em; background: #fafafa; }
.flag { color: #a51d1d; font-weight: bold; }
"""


@dataclass(frozen=True)
class Sheet:
    """One submission's page: who, their numbers, their answers."""
    submission: str
    identity: str
    flag: str
    """'' or the identity flag message."""
    numbers: dict[str, dict]
    responses: list[Response]


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
            out.append(prompt_html.block(r.question, r.prompt))
        out.append(f'<div class="answer">{esc(r.answer)}</div>' if r.answer is not None
                   else '<p class="muted">(no answer)</p>')
    out.append("</section>")
    return "\n".join(out)


def page(title: str, sections: list[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"{NO_SCRIPTS}\n<title>{esc(title)}</title>\n<style>{CSS}{PRINT_CSS}{prompt_html.CSS}</style>\n"
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
