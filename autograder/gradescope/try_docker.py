"""`python -m autograder try-zip ZIP NOTEBOOK --docker`: the zip run on one notebook
in a Docker container at Gradescope's defaults, from an image its own setup.sh built.

Reproduced, as Gradescope does it:

* the image: FROM the base image (Gradescope's Ubuntu 22.04 one by default,
  --base-image another), the zip unpacked into /autograder/source with its modes,
  run_autograder copied to /autograder/run_autograder, and the zip's setup.sh run
  once as root from /autograder/source. It is tagged by a hash of the zip, the base
  and the Dockerfile, so that trying the same zip again reuses it;
* each try, a fresh container of that image: 768 MB of memory and no swap, half a
  CPU, root, cwd /autograder; the notebook in /autograder/submission/ under its own
  name, submission_metadata.json beside it, an empty /autograder/results; then
  /autograder/run_autograder, stopped at Gradescope's 10 minutes, and results.json
  read back out. The container is removed afterwards, whatever happened.

Not reproduced: Gradescope's harness itself (how it copies the upload in and the
results out, its other limits), its network (the build uses this machine's, with
--network host; the run Docker's default), the machines its containers run on.
"""
from __future__ import annotations

import hashlib
import io
import subprocess
import sys
import tarfile
import uuid
from pathlib import Path

from autograder.gradescope import try_zip

DEFAULT_BASE = "gradescope/autograder-base:ubuntu-22.04"
"""Gradescope's base image for Ubuntu 22.04, the one setup.sh is written for."""
MEMORY_MB = 768
CPUS = 0.5
"""Gradescope's defaults for a container: 768 MB, half a CPU."""
REPOSITORY = "autograder-try"
"""The images' name; the tag is the hash of what built them."""
SETUP_STEP = "RUN bash ./setup.sh"
"""The Dockerfile's line that runs setup.sh: in the build log, it says setup.sh ran."""
LOG_TAIL = 60
"""Lines of a failed build's log shown."""


def engine_problem() -> str | None:
    """Why no Docker engine can be used here, or None."""
    try:
        proc = subprocess.run(["docker", "info", "--format", "{{.ServerVersion}}"],
                              capture_output=True, text=True, timeout=60)
    except FileNotFoundError:
        return "no `docker` command on PATH (install Docker, or try without --docker)"
    except subprocess.TimeoutExpired:
        return "`docker info` did not answer within 60 s"
    if proc.returncode != 0:
        reason = (proc.stderr.strip().splitlines() or ["no reason given"])[-1]
        return f"no Docker engine answers (`docker info`: {reason})"
    return None


def dockerfile(base: str) -> str:
    """The image as Gradescope builds it: the zip in /autograder/source, run_autograder
    beside it, setup.sh run as root from the source folder."""
    return "\n".join([
        f"FROM {base}",
        "USER root",
        "COPY source /autograder/source",
        "RUN cp /autograder/source/run_autograder /autograder/run_autograder"
        " && chmod 0755 /autograder/run_autograder",
        "WORKDIR /autograder/source",
        SETUP_STEP,
        "WORKDIR /autograder",
        ""])


def image_tag(zip_path: Path, base: str) -> str:
    """Named by what built it: the same zip on the same base gives the same tag."""
    digest = hashlib.sha256(dockerfile(base).encode())
    with open(zip_path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return f"{REPOSITORY}:{digest.hexdigest()[:16]}"


def ensure_image(tag: str, root: Path, base: str) -> None:
    """Build the image from `root`/source unless an image of that tag exists already."""
    if _docker("image", "inspect", tag).returncode == 0:
        _say(f"reusing image {tag} (built earlier from this zip on {base})")
        return
    _say(f"building image {tag}: the zip's setup.sh on {base} (minutes; the log is shown "
         "only on failure)")
    # The Dockerfile comes on stdin: the context is the unpacked folder, nothing written to
    # it. --force-rm: a failed setup.sh leaves no stopped container behind.
    proc = subprocess.run(["docker", "build", "--network", "host", "--force-rm", "-t", tag,
                           "-f", "-", str(root)], input=dockerfile(base), capture_output=True,
                          text=True, errors="replace")
    if proc.returncode != 0:
        log = (proc.stdout + proc.stderr).splitlines()
        ran = any(SETUP_STEP in line for line in log)
        why = ("setup.sh failed" if ran else
               f"docker build stopped before setup.sh ran (is the base image {base} "
               "available?)")
        tail = "\n".join(log[-LOG_TAIL:])
        raise try_zip.TryError(f"the image could not be built: {why}; the build log's "
                               f"last lines:\n{tail}")


def create_args(tag: str, name: str) -> list[str]:
    """`docker create` of one try's container at Gradescope's defaults (swap equal to the
    memory: none)."""
    return ["docker", "create", "--name", name,
            "--memory", f"{MEMORY_MB}m", "--memory-swap", f"{MEMORY_MB}m",
            "--cpus", str(CPUS), "--user", "root", "--workdir", "/autograder",
            tag, "/autograder/run_autograder"]


def upload(root: Path) -> bytes:
    """A tar of what the harness puts in /autograder: submission/, the metadata,
    an empty results/ (the zip's source is the image's own, setup.sh's modes kept)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name in ("submission", "results", try_zip.METADATA):
            tar.add(root / name, arcname=name, filter=_as_root)
    return buffer.getvalue()


def run(zip_path: Path, root: Path, base: str) -> tuple[int, str]:
    """run_autograder in a fresh container, as Gradescope runs it; results.json copied
    back to `root`/results: (its exit status, its output)."""
    tag = image_tag(zip_path, base)
    ensure_image(tag, root, base)
    name = f"autograder-try-{uuid.uuid4().hex[:12]}"
    try:
        _check(_docker(*create_args(tag, name)[1:]), "create the container")
        _check(_docker("cp", "-", f"{name}:/autograder", input=upload(root)),
               "copy the notebook in")
        _say(f"running in container {name}: {MEMORY_MB} MB of memory, no swap, "
             f"{CPUS} CPU, as root (Gradescope's defaults)")
        try:
            proc = subprocess.run(["docker", "start", "--attach", name], capture_output=True,
                                  text=True, errors="replace", timeout=try_zip.TIME_LIMIT)
            status, output = proc.returncode, proc.stdout + proc.stderr
        except subprocess.TimeoutExpired:  # the client is gone, not the container: it is
            # killed with the results it has copied out (none if nothing was written)
            status, output = -1, f"run_autograder took more than Gradescope's " \
                                 f"{try_zip.TIME_LIMIT} s and was stopped"
        _docker("cp", f"{name}:/autograder/results/.", str(root / "results"))
        return status, output
    finally:  # also on Ctrl-C or an error: --force kills it if it still runs
        _docker("rm", "--force", "--volumes", name)


def main(zip_path: Path, notebook: Path, metadata: Path | None = None,
         keep: Path | None = None, base: str = DEFAULT_BASE) -> int:
    """try_zip.main, run in a container; 2 when no Docker engine can be used."""
    problem = engine_problem()
    if problem:
        print(f"try-zip --docker: {problem}", file=sys.stderr)
        return 2
    return try_zip.main(zip_path, notebook, metadata=metadata, keep=keep,
                        runner=lambda root: run(zip_path, root, base))


def _docker(*args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(["docker", *args], input=input, capture_output=True)


def _check(proc: subprocess.CompletedProcess, what: str) -> None:
    if proc.returncode != 0:
        raise try_zip.TryError(f"docker could not {what}: "
                               f"{proc.stderr.decode(errors='replace').strip()}")


def _as_root(info: tarfile.TarInfo) -> tarfile.TarInfo:
    info.uid = info.gid = 0
    info.uname = info.gname = "root"
    return info


def _say(line: str) -> None:
    print(f"try-zip: {line}", file=sys.stderr, flush=True)
