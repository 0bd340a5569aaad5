"""The export for grading by hand, written by every `grade` of an assignment
with manual questions (grading_config [manual.<id>]):

    DIR/manual/responses.html     the answers to grade, one code per printed page
    DIR/manual/rubric_scores.csv  the rubric-scores file to fill (course/rubric.py):
                                  made once, then only given rows for new submissions
    DIR/manual_key.csv            code -> submission: the instructor's (course/manual_codes.py)

DIR/manual/ is what the graders get; the key stays outside it. Anonymous by
default: the page and the template show codes only, in the codes' order (the
ids' alphabetical order would give names away), and nothing that names the
student (id, submitters, identity flags, why an upload could not be graded:
that quotes its file name). With anonymous=False the page also shows each
code's submission and submitters; the codes and files are the same.

Each question shows its prompt (its Markdown rendered, its math as TeX
source: report/prompt_html.py; shown as escaped source when rendering it
fails), the student's answer (course/free_text.py, escaped, never rendered:
the page forbids scripts besides) and the numbers of the questions its
`numbers` lists (an exam's: the variant its hidden tests recorded,
annotations["exam"], looked up in the reference's variant_table). A
submission whose section cannot be made costs its own section, which says so.
"""
from __future__ import annotations

from pathlib import Path

from autograder import guard
from autograder.course import free_text, manual_codes, roster, rubric
from autograder.report import prompt_html
from autograder.report.htmlpage import CSS, NO_SCRIPTS, esc, table
from autograder.writing import write_atomic

FOLDER = "manual"
PAGE = "responses.html"
TEMPLATE = "rubric_scores.csv"
FILES = (FOLDER, manual_codes.KEY, manual_codes.SECRET)
"""What the export writes at the top of DIR."""
PRINT_CSS = """
.code { page-break-before: always; } .code:first-of-type { page-break-before: auto; }
.answer { white-space: pre-wrap; word-break: break-word; border-left: 3px solid #4c72b0;
          padding: 0.3em 0.8em; background: #fafafa; }
"""


def template_path(out: Path) -> Path:
    return out / FOLDER / TEMPLATE


def write(batch, anonymous: bool = True) -> list[str]:
    """Write the export (nothing for an assignment without manual questions);
    the lines to print."""
    a, out = batch.assignment, batch.out
    manual = a.config.manual
    if not manual or not batch.results:
        return []
    codes = manual_codes.issue(out, a.id, [r.submission for r in batch.results])
    ordered = sorted(batch.results, key=lambda r: codes[r.submission] if anonymous
                     else r.submission)
    sections = []
    for r in ordered:
        body, error = guard.attempt(f"the manual answers of {r.submission}", section,
                                    r, codes[r.submission], manual, a.reference, anonymous)
        sections.append(body if body is not None else
                        f'<section class="code"><h1>{esc(codes[r.submission])}</h1><p>This '
                        f"section could not be made ({esc(error)}, logged).</p></section>")
    page = out / FOLDER / PAGE
    write_atomic(page, _page(f"{a.config.title}: answers to grade by hand", sections))
    template = template_path(out)
    existed = template.exists()
    added = rubric.add_rows(template, [(codes[r.submission], q) for r in
                                       sorted(batch.results, key=lambda r: codes[r.submission])
                                       for q in manual])
    lines = ["", f"grading by hand ({', '.join(manual)}): {page} "
                 f"({'anonymous' if anonymous else 'with names'}) for the graders; the codes' "
                 f"key is {out / manual_codes.KEY}, for you only"]
    if added is None:
        lines.append(f"  warning: {template} is not a rubric-scores CSV any more (its header "
                     f"must be {','.join(rubric.COLUMNS)}); no rows were added to it")
    elif not existed:
        lines.append(f"  rubric scores to fill: {template} ({added} rows)")
    else:
        lines.append(f"  rubric scores to fill: {template} (kept; {added} rows added for new "
                     "submissions)" if added else f"  rubric scores to fill: {template} (kept)")
    return lines


def section(result, code: str, manual: dict, reference, anonymous: bool) -> str:
    """One submission's section of the page."""
    out = [f'<section class="code" id="{esc(code)}"><h1>{esc(code)}</h1>']
    if not anonymous:
        names = [str(u["name"]) for u in roster.members(result) if u.get("name")]
        out.append(f"<p>Submission <code>{esc(result.submission)}</code>"
                   + (f" ({esc(', '.join(names))})" if names else "") + "</p>")
    for response in free_text.extract(result.cells, list(manual)):
        q = response.question
        out.append(f"<h2>{esc(q)} ({manual[q].points:g} points)</h2>")
        if response.prompt:
            out.append(prompt_html.block(q, response.prompt))
        numbers = _numbers(result, manual[q].numbers, reference)
        if numbers:
            out.append(table(["question", "this student's numbers"], numbers))
        out.append(f'<div class="answer">{esc(response.answer)}</div>'
                   if response.answer is not None else '<p class="muted">(no answer)</p>')
    out.append("</section>")
    return "\n".join(out)


def _numbers(result, questions, reference) -> list[list[str]]:
    """[question, "name=value, ..."] for each of `questions` whose variant the
    hidden tests recorded (none for a homework)."""
    recorded = result.annotations.get("exam", {}).get("variants", {})
    lookup = getattr(reference, "variant_table", None)
    rows = []
    for q in questions:
        if lookup is None or not isinstance(recorded.get(q), int):
            continue
        numbers = lookup(q)[recorded[q]]
        rows.append([q, ", ".join(f"{k}={v}" for k, v in numbers.items())])
    return rows


def _page(title: str, sections: list[str]) -> str:
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"{NO_SCRIPTS}\n<title>{esc(title)}</title>\n<style>{CSS}{PRINT_CSS}{prompt_html.CSS}</style>\n"
            "</head>\n<body>\n" + "\n".join(sections) + "\n</body>\n</html>\n")
