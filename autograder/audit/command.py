"""`python -m autograder audit ID`: run the audit, print its table, write its page."""
from __future__ import annotations

from pathlib import Path

from autograder import paths
from autograder.audit import report
from autograder.audit.run import audit


def main(*, assignment_id: str, jobs: int | None = None, html: Path | None = None,
         with_corpus: bool = True, with_mutants: bool = True) -> int:
    result = audit(assignment_id, jobs, with_corpus, with_mutants=with_mutants)
    print(report.text(result))
    target = html or paths.ROOT / "build" / "audit" / f"{assignment_id}.html"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(report.html(result))
    print(f"the audit's page: {paths.relative(target)}")
    return 1 if result.problems else 0
