"""`audit`: mutation analysis of an assignment's hidden tests."""
from __future__ import annotations

import argparse
from pathlib import Path

from autograder import registry
from autograder.commands import Commands, Fail, Verb, whole
from autograder.grade import MAX_JOBS


def declare_audit(commands: Commands) -> argparse.ArgumentParser:
    audit = commands.add_parser(
        "audit", help="mutation analysis of an assignment's hidden tests",
        description="Grade every one-change mutant of the assignment's reference, every "
                    "assumption variant (the reference restricted to the lesson's rank, "
                    "crashing on one edge, or answering in another shape) and every corpus "
                    "variant, and say which mutants the hidden tests kill, which survive "
                    "(blind spots), which cascade into other questions, which are declared "
                    "equivalent (autograder/ID/mutants.toml), and which assumption costs "
                    "more than its own test. Exit 1 on a survivor, a cascade or a corpus "
                    "variant that is not as declared.",
        epilog="example: python -m autograder audit hw1_attention")
    audit.add_argument("id", metavar="ID", help=f"one of: {', '.join(registry.ids())}")
    audit.add_argument("--jobs", type=whole(1, MAX_JOBS), default=None, metavar="N",
                       help="mutants graded in parallel (default: one per core)")
    audit.add_argument("--html", type=Path, default=None, metavar="FILE",
                       help="where to write the page (default: build/audit/ID.html)")
    audit.add_argument("--no-corpus", action="store_true",
                       help="mutants only, without the corpus's variants")
    audit.add_argument("--assumptions-only", action="store_true",
                       help="the assumption variants alone (seconds, not minutes)")
    return audit


def run_audit(args: argparse.Namespace, fail: Fail) -> int:
    if args.id not in registry.ids():
        fail(f"unknown assignment {args.id!r} (known: {', '.join(registry.ids())})")
    from autograder.audit.command import main as run_audit
    return run_audit(assignment_id=args.id, jobs=args.jobs, html=args.html,
                     with_corpus=not (args.no_corpus or args.assumptions_only),
                     with_mutants=not args.assumptions_only)


AUDIT = Verb(declare_audit, run_audit)
