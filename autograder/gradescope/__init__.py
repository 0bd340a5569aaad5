"""Gradescope: the autograder zip (package.py) and the per-submission entry
point that run_autograder calls (run.py)."""
