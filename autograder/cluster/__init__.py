"""Grading on a Dask cluster: `grade ... --scheduler ADDRESS [--resume]`.

What must stay true:
- Dask is imported only here, and this package only when --scheduler is
  given: the local path never imports it.
- Each Dask worker is a grading host: it loads the assignment the client
  shipped as data (bundle.py), starts its own template and grades with the
  local path's engine/batch.grade_submission, same sandbox, limits, restarts.
- A student's notebook travels as bytes, read on the client by the local
  path's bounded reader, and is never unpickled; a result comes back as
  plain data (engine/results.to_plain), never as an object.
- The client writes every file, through the local path's code; a host writes
  nothing but its private folder.
- Every submission ends with exactly one result, whatever workers die; a lost
  scheduler ends the run (ClusterError, exit status 2) with the results
  written so far intact, and --resume grades only what is missing.

See docs/scaling.md.
"""


class ClusterError(Exception):
    """The cluster cannot finish the run; the message is for the instructor."""
