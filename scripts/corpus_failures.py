"""Maintainer tool: what each corpus mistake costs and which tests it fails now.

    .venv/bin/python scripts/corpus_failures.py [ASSIGNMENT ...] [--write]

Prints, per buggy variant of tests/assignments/corpus/<id>/buggy/, the points it loses
(of its question's), the tests it fails now and, when they differ, the
`# fails:` list its header declares. With --write, the header's `# fails:`
line is set to what fails now: review the diff (a mistake that fails a test
about another property is a defect of the tests, not of the list). The test
suite never runs this; tests/assignments/test_corpus.py checks the declared lists.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from autograder import corpus  # noqa: E402
from tests.assignments import corpus_tools  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignments", nargs="*", help="default: every assignment with a corpus")
    parser.add_argument("--write", action="store_true", help="rewrite the `# fails:` lines")
    args = parser.parse_args(argv)
    ids = args.assignments or sorted(p.name for p in corpus_tools.CORPUS.iterdir() if p.is_dir())
    changed = 0
    for assignment_id in ids:
        with tempfile.TemporaryDirectory() as tmp:
            a, results, _ = corpus_tools.grade_corpus(assignment_id, Path(tmp))
        print(f"## {assignment_id}")
        for path, result in results.items():
            changed += report(a, path, result, args.write)
    print(f"{changed} buggy variant(s) whose failing tests differ from their header")
    return 0


def report(a, path: Path, result, write: bool) -> int:
    """Print one variant's line; 1 when its declared list differs from what fails."""
    failed = corpus_tools.failed_tests(result)
    if path.parent.name == "correct":
        if failed:
            print(f"{path.stem}: CORRECT VARIANT FAILS {failed}")
        return 0
    head = corpus_tools.declared(path)
    lost = a.max_total - result.score
    names = [n for _, n in failed]
    others = sorted({q for q, _ in failed if q != head.question})
    line = f"{path.stem}: -{lost:g} of {a.config.max_points(head.question):g}: {', '.join(names)}"
    if others:
        line += f"  [ALSO FAILS {others}]"
    differs = head.fails is None or sorted(head.fails) != sorted(names)
    if differs:
        line += f"  (header: {', '.join(head.fails) if head.fails is not None else 'none'})"
        if write:
            set_fails(path, names)
    print(line)
    return int(differs)


def set_fails(path: Path, names: list[str]) -> None:
    """Put `# fails: ...` as the second line (replacing one that is there)."""
    lines = path.read_text().splitlines(keepends=True)
    new = f"# fails: {', '.join(names)}\n"
    if len(lines) > 1 and corpus.FAILS.match(lines[1]):
        lines[1] = new
    else:
        lines.insert(1, new)
    path.write_text("".join(lines))


if __name__ == "__main__":
    raise SystemExit(main())
