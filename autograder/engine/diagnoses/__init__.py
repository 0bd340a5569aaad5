"""Diagnoses: a failing test's answers matched against known mistakes.

An assignment may declare, in autograder/<id>/diagnoses.py, a list DIAGNOSES of
Diagnosis entries: a typical mistake of one stub, as a function with the stub's
signature that makes it (author's code, run only here in the trusted process,
never sent to the worker), a one-line explanation for the student, and the
notebook section to reread.

While a test of a diagnosed question runs, the Student records every call of
that question's stub the test makes (arguments and answer, or the exception's
type; see Calls). Only when the test fails on the answer are the mistakes
replayed on copies of the same arguments: a mistake matches when it gives every
recorded answer (same types, dtypes and shapes, values within its tolerance,
the same exception type, and a message of the same class: see Raised). The test
is a function of those answers, so a mistake that matches fails the test in the
same way; it must also differ from the reference somewhere on those inputs (else
the test's inputs do not reveal it). Feedback names the mistake only when exactly
one matches (or one whose mistakes every other match makes too: combined()) and no
stand-in (a stub nobody wrote) explains the answers as well
(evidence.py); a test that passes costs one list append per call.

A handle among the arguments (an object in the worker) is replayed through its
twin: the grader-side object the test declares for it (Student.twin), built
here from the same trusted code (a model, a step function), on which the
mistake runs in its place. A twin is not copied: mistakes must not modify it,
unless it has a state the test read back (then make() gives a fresh one for
each replay, and the mistake must leave it in the state the test read). A
handle without a twin (a generator) cannot be replayed: its diagnoses are signs
read from the recorded answers instead (Diagnosis.replay False).

A stub whose answer is a handle (a class: an nn.Module the test then loads,
reads and calls) is recorded with what the test does to that handle: each
method call, attribute read and list() of it, or of a handle got from it, is a
Step of the same Calls, in order, with its answer, and so are the seeds the
test gave the worker (Calls.seed, Calls.seeds: random initial weights are
answers too). Its mistake is a class with the stub's signature, driven the
same way on copies of the same arguments under the same seeds (drive.run), and
compared answer by answer as the protocol delivers them: two handles are the
same answer, a handle and plain data are not. A handle sent anywhere else (as
an argument, to a probe) may change unseen: that spoils the record. Such a
drive builds a model per mistake; its answers are kept for the batch (Driven),
keyed by a digest of the inputs, which every submission failing the test shares.
A repeat(n) of the stub (a sampler's draws) is kept as one Repeated entry, made
its n calls only when a diagnosis reads them.

Nothing here changes a score: the diagnosis is TestResult.diagnosis, shown
beside the output by the feedback and by results.json's test output.

One job per file, in the order a failed test meets them:

    declared.py   Diagnosis and combined(): what an assignment declares; load()
    record.py     Calls: what a test records while it runs (appends only)
    raised.py     Raised: a call that raised, as both sides' exceptions compare
    replay.py     a mistake's answer on copies of a call's arguments, handles
                  replaced by their twins
    drive.py      a class stub's mistake driven as the test drove the student's
                  objects, kept for the batch (DRIVEN)
    compare.py    whether an answer is a mistake's (same)
    match.py      whether a mistake explains the answers (matches)
    evidence.py   the one diagnosis to name, or none (diagnose): stand-ins first
    verdicts.py   a diagnosis kept for the batch, given to the next identical record
    signs.py      signs any assignment may declare
"""
