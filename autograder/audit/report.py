"""What `audit` prints and the page it writes: per stub, how many mutants the
hidden tests killed, missed or let cascade; each survivor as a diff with the
tests that should have caught it; per test, what it catches; per corpus
variant, whether it fails exactly what it declares and what it costs."""
from __future__ import annotations

from collections import Counter

from autograder.audit.assumptions import SAID
from autograder.audit.run import Audit, MutantOutcome
from autograder.report.htmlpage import esc, page, table

KINDS = ("killed", "survived", "cascaded", "equivalent", "broken")


def rows(result: Audit) -> list[list[str]]:
    """One row per stub, and the total: mutants and each kind."""
    out = []
    for question in [*result.assignment.questions, None]:
        counts = result.count(question)
        total = sum(counts.values())
        if question is not None and not total:
            continue
        out.append([question or "total", str(total), *(str(counts[k]) for k in KINDS)])
    return out


NOT_GRADED = "{}: not graded this run"
"""What the reports say of a part the audit was told to skip, rather than an empty table."""


def text(result: Audit) -> str:
    a = result.assignment
    correct = [v for v in result.variants if v.kind == "correct"]
    buggy = [v for v in result.variants if v.kind == "buggy"]
    head = ["stub", "mutants", *KINDS]
    widths = [max(len(r[i]) for r in [head, *rows(result)]) for i in range(len(head))]
    lines = [f"audit {a.id}: {len(result.mutants)} mutants of the reference, "
             f"{len(result.variants)} corpus variants, graded in {result.seconds:.1f} s", ""]
    if "mutants" in result.skipped:
        lines.append(NOT_GRADED.format("mutants"))
    else:
        for row in [head, *rows(result)]:
            lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                   for i, (c, w) in enumerate(zip(row, widths))))
    for m in result.mutants:
        if m.kind == "survived":
            lines.append(f"\nsurvived {m.mutant.id} (line {m.mutant.line}: "
                         f"{m.mutant.description}): no test of {m.mutant.question} failed")
        elif m.kind == "cascaded":
            note = f"declared: {m.reason}" if m.reason else "not declared"
            lines.append(f"\ncascaded {m.mutant.id} (line {m.mutant.line}: "
                         f"{m.mutant.description}): failed {', '.join(m.failed)} ({note})")
    lines += _assumption_lines(result)
    lines.append("\n" + NOT_GRADED.format("corpus") if "corpus" in result.skipped else
                 f"\ncorpus: {sum(v.as_declared for v in correct)} of {len(correct)} correct "
                 f"variants keep every point; {sum(v.as_declared for v in buggy)} of "
                 f"{len(buggy)} buggy ones fail exactly what they declare")
    lines += [f"  not as declared: {v.path.name} failed {', '.join(v.failed) or 'nothing'}"
              for v in result.variants if not v.as_declared]
    lines += [f"  stale declaration: {s}" for s in result.stale]
    for test, seen in sorted(result.raised.items()):
        lines.append(f"\nraised on the grader's side: {test}, for {len(seen)} submission(s), "
                     f"e.g. {seen[0][0]}: {seen[0][1]}")
    problems = result.problems
    lines.append(f"\n{len(problems)} problem(s)" + (": " + "; ".join(problems[:5]) +
                                                     (" ..." if len(problems) > 5 else "")
                                                     if problems else ""))
    return "\n".join(lines)


def _assumption_lines(result: Audit) -> list[str]:
    cascaded = [a for a in result.assumptions if a.beyond]
    lines = [f"\nassumptions: {len(result.assumptions)} variants, "
             f"{len(result.assumptions) - len(cascaded)} lose nothing beyond their own test, "
             f"{sum(not a.shortfall for a in result.assumptions)} of them nothing at all"]
    for a in cascaded:
        note = f"declared: {a.reason}" if a.reason else "not declared"
        lines.append(f"  cascaded {a.assumption.id} ({SAID[a.assumption.kind]}): "
                     f"{sum(a.beyond.values()):g} point(s) beyond its own test, on "
                     f"{', '.join(a.beyond)} ({note})")
    return lines


def assumption_rows(result: Audit) -> list[list[str]]:
    """Per assumption variant: what it lost, and what of that is beyond its own test."""
    return [[a.assumption.id, SAID[a.assumption.kind], f"{sum(a.shortfall.values()):g}",
             f"{sum(a.beyond.values()):g}",
             ", ".join(a.beyond) + (f" (declared: {a.reason})" if a.reason and a.beyond else ""),
             ", ".join(a.shortfall)] for a in result.assumptions]


def catches(result: Audit) -> list[list[str]]:
    """Per hidden test: mutants it kills (alone), corpus mistakes it catches."""
    killed, alone, mistakes = Counter(), Counter(), Counter()
    for m in result.mutants:
        if m.kind in ("killed", "cascaded"):
            killed.update(m.failed)
            if len(m.failed) == 1:
                alone.update(m.failed)
    for v in result.variants:
        if v.kind == "buggy":
            mistakes.update(v.failed)
    return [[key, str(killed[key]), str(alone[key]), str(mistakes[key])]
            for key in (f"{c.question}.{c.name}" for c in result.assignment.cases)]


def html(result: Audit) -> str:
    a = result.assignment
    body = [f"<h1>Audit of {esc(a.id)}'s hidden tests</h1>",
            f"<p>{len(result.mutants)} one-change mutants of the reference and "
            f"{len(result.variants)} corpus variants, graded in {result.seconds:.1f} s. "
            "A mutant is killed when it loses points on its own question only, survives "
            "when it loses none (a blind spot), cascades when it costs another question; "
            "declared ones are in <code>autograder/" + esc(a.id) + "/mutants.toml</code>.</p>"]
    if "mutants" in result.skipped:
        body.append(f"<p>{esc(NOT_GRADED.format('Mutants'))}.</p>")
    else:
        shown = [m for m in result.mutants if m.kind in ("survived", "cascaded", "equivalent")]
        body += [table(["stub", "mutants", *KINDS], rows(result), numeric=set(range(1, 7))),
                 "<h2>Survivors and cascades</h2>",
                 *([_mutant(m, a) for m in shown] or ["<p>None.</p>"])]
    body += ["<h2>What each test catches</h2>",
             table(["test", "mutants it fails", "of which no other test fails",
                    "corpus mistakes it catches"], catches(result), numeric={1, 2, 3}),
             "<h2>Assumptions</h2>",
             "<p>Each stub made correct but for one assumption real code makes: it may lose "
             "the points of the one test about that assumption (a wrong shape: any test but "
             "those about refusing bad input), and no others.</p>",
             table(["variant", "assumption", "points lost", "beyond its own test",
                    "tests beyond", "tests it fails"], assumption_rows(result),
                   numeric={2, 3}),
             "<h2>The corpus</h2>",
             f"<p>{esc(NOT_GRADED.format('The corpus'))}.</p>" if "corpus" in result.skipped else
             table(["variant", "question", "as declared", "share of its question it costs",
                    "tests it fails"],
                   [[f"{v.kind}/{v.path.name}", v.question or "", "yes" if v.as_declared else "NO",
                     f"{v.share:.0%}", ", ".join(v.failed)] for v in result.variants])]
    if result.raised:
        body += ["<h2>Tests that raised on the grader's side</h2>",
                 "<p>The test's own code failed on an answer it did not expect: that test's "
                 "points are withheld and the submission needs a regrade, until the test "
                 "checks what it relies on first (a shape, a type).</p>",
                 table(["test", "submissions", "for example"],
                       [[t, str(len(seen)), f"{seen[0][0]}: {seen[0][1]}"]
                        for t, seen in sorted(result.raised.items())], numeric={1})]
    if result.stale:
        body += ["<h2>Stale declarations</h2>", "<ul>" + "".join(
            f"<li>{esc(s)}</li>" for s in result.stale) + "</ul>"]
    return page(f"Audit: {a.id}", body)


def _mutant(m: MutantOutcome, a) -> str:
    tests = [c.name for c in a.cases if c.question == m.mutant.question]
    what = {"survived": f"no test of {m.mutant.question} failed; the ones that should have: "
                        + ", ".join(tests),
            "cascaded": "failed " + ", ".join(m.failed)
                        + (f" (declared: {m.reason})" if m.reason else " (not declared)"),
            "equivalent": f"declared equivalent: {m.reason}"}[m.kind]
    return (f"<h3 class=\"{'failed' if m.kind != 'equivalent' else 'muted'}\">{esc(m.kind)}: "
            f"{esc(m.mutant.id)} (line {m.mutant.line})</h3><p>{esc(m.mutant.description)}; "
            f"{esc(what)}</p><pre>{esc(m.mutant.diff)}</pre>")
