"""pytest loads this file for any path under autograder/, which registers the
plugin that runs an assignment's hidden tests against one notebook
(autograder/pytest_plugin.py): `pytest autograder/<id> --notebook PATH`."""
from autograder.pytest_plugin import (  # noqa: F401  hooks found by name
    pytest_addoption, pytest_collection_modifyitems, pytest_configure, pytest_pycollect_makemodule,
    pytest_sessionfinish, pytest_terminal_summary)
