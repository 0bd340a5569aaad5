"""Fitting the workers' memory budget into what the grader's whole process
tree may use: a container's limit (Gradescope gives 768 MB by default to the
grader, the template and the worker together).

What must stay true: with the grader and the template at the size they have
once the template has imported its modules, `workers` workers each at the
fitted budget leave HEADROOM_MB of the tree's limit for the libraries' pages
and the grader's own work; a budget is only ever lowered, never raised, in
steps of STEP_MB (so that the same notebook gets the same budget on every
run), and the sandbox's line says when and by how much. Beyond the limit the
kernel kills a worker first (worker/confine.py's OOM score), so a submission
over its budget loses its own worker, never the grader.
"""
from __future__ import annotations

HEADROOM_MB = 192
"""The pages of the libraries the processes use (torch's are about 150 MB, and
count where a fresh container read them; being files, the kernel can drop the
cold ones) and the grader's growth while grading (hw4's reference runs)."""
MINIMUM_MB = 64
"""Never fitted below this: a notebook needs some memory of its own to run."""
STEP_MB = 16


def anonymous_mb(pid: int | str = "self") -> float:
    """A process's resident anonymous and shared memory, MB (what only it
    holds, unlike the library files that the grader and the template share);
    0 when it cannot be read."""
    found = 0.0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("RssAnon", "RssShmem"):
                    found += int(value.split()[0]) / 1024
    except (OSError, ValueError, IndexError):
        return 0.0
    return found


def fit(memory_mb: int, limit_bytes: int | None, pids: list[int | str],
        workers: int) -> tuple[int, str]:
    """The budget per worker that fits `limit_bytes` beside the processes
    `pids` (the grader and the template), and why it was lowered ("" when
    it was not)."""
    if limit_bytes is None:
        return memory_mb, ""
    used = sum(anonymous_mb(pid) for pid in pids)
    limit = limit_bytes / 2**20
    share = int((limit - used - HEADROOM_MB) // max(workers, 1)) // STEP_MB * STEP_MB
    if share >= memory_mb:
        return memory_mb, ""
    fitted = max(share, MINIMUM_MB)
    per = f"{workers} workers at once" if workers > 1 else "the worker"
    note = (f"memory_mb {memory_mb} lowered to {fitted} MB so that {per} fit this process "
            f"tree's limit of {limit:.0f} MB beside the grader and the template "
            f"({used:.0f} MB) and {HEADROOM_MB} MB for libraries and the grader's work")
    if share < MINIMUM_MB:
        note += "; that is less than a notebook needs: give the container more memory"
    return fitted, note
