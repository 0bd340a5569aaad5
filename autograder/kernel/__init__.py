"""The kernel helpers both sides of the sandbox use: the sandbox modes, Landlock,
the seccomp filter, a worker's disk meter, a uid's sweep, the places on the
machine a uid could write and the Python paths a worker may read.

The grader (engine/isolation) judges and chooses with them, the template
(worker/template.py) confines and cleans up with them. They import only the
standard library and each other: nothing here may reach the engine or the
worker, since both import it (tests/test_import_rules.py).
"""
