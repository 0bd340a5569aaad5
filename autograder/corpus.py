"""The corpus of correct and buggy variants of every assignment's stubs
(tests/assignments/corpus/<id>/correct/ and buggy/): what a variant declares.

A buggy variant opens with its declaration, reviewed by a person:

    # question: mask_tokens
    # fails: test_labels_and_corruption_rules, test_random_ids_uniform

    # public: sum to 1
    # public: -100

`question` is the stub the mistake is in; `fails` is exactly the hidden tests
of that question it must fail (the properties it breaks), nothing more. Each
`# public:` line after them is a fragment of what the notebook's own public
checks say about the mistake: every public check of the question that fails
does so with a message holding one of the fragments (case aside), and each
fragment is in some message; `# public: -` says every public check passes.

Any variant, correct or buggy, may carry `# split: measure` among its opening
comment lines: it is in the measuring part, which measures the diagnoses and is
never used to write or tune one (docs/authoring.md, "Diagnoses"); without the
line a variant is in the tuning part. A `# source:` line names where code taken
from public work came from.

Among the opening comment lines, a buggy variant also says which declared
mistakes (the mistake functions of autograder/<id>/diagnoses.py) it is, by at
most one of three lines (docs/authoring.md, "Corpus"):

    # diagnosis: pe_d_unchecked, pe_types_unchecked
    # ambiguous: sn_always_argmax
    # makes: mt_never_random, mt_fixed_split     (or `# makes: -`)

`# diagnosis:` lists the mistakes our own variant makes, each of which feedback
must name, and nothing else; `# ambiguous:` a mistake it makes that is declared but
never named (its failing tests cannot tell it from a stand-in), with the reason on
the comment lines after it; `# makes:` the declared mistakes a variant taken from
public code really makes, labelled from its code before it was graded (`# makes: -`
when none of its mistakes has a diagnosis): whatever feedback names on it must be
one of them, and it need not name any.
The project's tests (tests/assignments/, tests/build/), `bench` and `audit`
read it here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autograder import registry

QUESTION = re.compile(r"#\s*question:\s*(\w+)\s*$")
FAILS = re.compile(r"#\s*fails:\s*(.*?)\s*$")
PUBLIC = re.compile(r"#\s*public:\s*(.*?)\s*$")
SPLIT = re.compile(r"#\s*split:\s*(\w+)\s*$")
DIAGNOSIS = re.compile(r"#\s*diagnosis:\s*(.*?)\s*$")
AMBIGUOUS = re.compile(r"#\s*ambiguous:\s*(.*?)\s*$")
MAKES = re.compile(r"#\s*makes:\s*(.*?)\s*$")
NOTHING_DIAGNOSED = "-"
TUNE, MEASURE = "tune", "measure"
NO_PUBLIC_FAILURE = "-"


@dataclass(frozen=True)
class Declared:
    question: str | None
    fails: tuple[str, ...] | None
    """None when the header has no `# fails:` line."""
    public: tuple[str, ...] | None = None
    """The `# public:` fragments, () for `# public: -`, None without the line."""
    split: str = TUNE
    """MEASURE for a variant of the measuring part (`# split: measure`), else TUNE."""
    diagnoses: tuple[str, ...] = ()
    """The mistakes named by `# diagnosis:`, which feedback must name (our own variants)."""
    ambiguous: tuple[str, ...] = ()
    """The mistakes named by `# ambiguous:`: made, declared, never named."""
    makes: tuple[str, ...] | None = None
    """The mistakes named by `# makes:` (a public variant's label), () for `# makes: -`,
    None without the line."""

    @property
    def made(self) -> tuple[str, ...]:
        """Every declared mistake the variant makes, whichever line says so."""
        return self.diagnoses + self.ambiguous + (self.makes or ())


def declared(path: Path) -> Declared:
    """The header of a corpus file: its first two lines, then its `# public:` lines,
    and the `# split:`, `# diagnosis:`, `# ambiguous:` and `# makes:` lines among its
    opening comment lines."""
    lines = path.read_text().splitlines() + ["", ""]
    q, f = QUESTION.match(lines[0]), FAILS.match(lines[1])
    fails = tuple(n.strip() for n in f.group(1).split(",") if n.strip()) if f else None
    fragments = []
    for line in lines[2:]:
        m = PUBLIC.match(line)
        if not m:
            break
        fragments.append(m.group(1))
    split = split_of(lines)
    public = (None if not fragments else
              () if fragments == [NO_PUBLIC_FAILURE] else tuple(fragments))
    makes = names_of(lines, MAKES)
    return Declared(q.group(1) if q else None, fails, public, split,
                    names_of(lines, DIAGNOSIS) or (), names_of(lines, AMBIGUOUS) or (),
                    None if makes is None else () if makes == (NOTHING_DIAGNOSED,) else makes)


def names_of(lines: list[str], key: re.Pattern) -> tuple[str, ...] | None:
    """The comma-separated names of the opening comment line `key` matches (None
    without one; a second such line is an error)."""
    found = None
    for line in lines:
        if not line.startswith("#"):
            break
        m = key.match(line)
        if m:
            if found is not None:
                raise ValueError(f"two lines match {key.pattern}")
            found = tuple(n.strip() for n in m.group(1).split(",") if n.strip())
    return found


def split_of(lines: list[str]) -> str:
    """The part a variant is in, read from its opening comment lines."""
    for line in lines:
        if not line.startswith("#"):
            break
        m = SPLIT.match(line)
        if m:
            if m.group(1) not in (TUNE, MEASURE):
                raise ValueError(f"# split: {m.group(1)} (expected {TUNE} or {MEASURE})")
            return m.group(1)
    return TUNE


def variants(assignment_id: str | None = None) -> list[Path]:
    """Every corpus file, sorted (correct/ and buggy/ of one assignment, or of all)."""
    ids = [assignment_id] if assignment_id else registry.ids()
    return [p for a in ids for kind in ("buggy", "correct")
            for p in sorted((registry.get(a).corpus / kind).glob("*.py"))]


PRELUDE = "prelude.py"
"""An assignment's corpus may hold one: cells graded after the reference, before
each variant, and in the audit after the reference and each mutant (an exam's
variants need the submitter's identity and short answers, which no reference
function gives)."""


def prelude(assignment_id: str, submission: str) -> list[str]:
    """The corpus's prelude, if it has one, after a cell `SUBMISSION_ID = "<submission>"`
    (the id a notebook is graded under, which an exam's identity must match)."""
    path = registry.get(assignment_id).corpus / PRELUDE
    return [f"SUBMISSION_ID = {submission!r}", path.read_text()] if path.is_file() else []


def cells(path: Path, reference: str) -> list[str]:
    """The cells a variant is graded as: the reference, the prelude, the variant."""
    return [reference, *prelude(path.parent.parent.name, submission_id(path)), path.read_text()]


def submission_id(path: Path) -> str:
    """The id a variant is graded under: <correct|buggy>__<name>."""
    return f"{path.parent.name}__{path.stem}"
