"""Gradescope's container: hw1 in landlock mode, the whole hostile corpus
(tests/gradescope/container_cases.py holds the cases and the tests)."""
from tests.gradescope.container_cases import *  # noqa: F403  (the tests, collected here)
from tests.gradescope.container_cases import (fixtures, marks, test_every_case_has_one_module,  # noqa: F401
                                              test_every_named_attack_exists)

SHARE = ("hw1_attention", ("landlock",))
image, graded = fixtures(*SHARE)
pytestmark = marks(minutes=8)
