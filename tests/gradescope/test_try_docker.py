"""`try-zip --docker`: the zip run on one notebook in a real Docker container at
Gradescope's defaults, from an image its own setup.sh built.

The Docker tests start their own dockerd (its data in a temporary folder), build a
base image without any image registry (Debian bookworm by debootstrap from the
mirror this machine's apt uses, imported with `docker import`), build hw1's zip with
a CPU torch wheel in it when pip finds one (so setup.sh installs no torch from an
index), then: the full solution gets full marks in a container of 768 MB, no swap
and half a CPU (read back from the engine while it runs), the untouched notebook 0
from the same image, not rebuilt; no container is left. A setup.sh that fails and a
run over the time limit end in a clear error, with no container left either.

Not reproduced: Gradescope's Ubuntu 22.04 base (Debian 12 here, whose python3 is
3.11: setup.sh takes its wheel's python3.11 as on 22.04), its registry. The base
image trusts the certificates this machine trusts, and pip is told so, so that
setup.sh's pip reaches the index behind a proxy that re-signs TLS, as this
machine's own pip does.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path

import pytest

from autograder import cli
from autograder.gradescope import package, try_docker, try_zip

REPO = Path(__file__).resolve().parents[2]
ASSIGNMENT = "hw1_attention"
EXAMPLES = REPO / "examples" / ASSIGNMENT
BASE = "try-docker-test-base:bookworm"
SUITE = "bookworm"
CA_BUNDLES = (os.environ.get("PIP_CERT"), os.environ.get("SSL_CERT_FILE"),
              "/etc/ssl/certs/ca-certificates.crt")
"""Where this machine's trusted certificates may be, first found taken."""


def apt_mirror() -> str | None:
    """The first URI this machine's apt takes SUITE from (read, never written down)."""
    sources = Path("/etc/apt")
    files = [sources / "sources.list", *sorted((sources / "sources.list.d").glob("*"))]
    for path in files:
        try:
            text = path.read_text()
        except OSError:
            continue
        if path.suffix == ".sources":  # deb822: URIs and Suites in one stanza
            for stanza in re.split(r"\n\s*\n", text):
                fields = dict(re.findall(r"(?m)^(\w[\w-]*):\s*(.+)$", stanza))
                if "deb" in fields.get("Types", "").split() and \
                        SUITE in fields.get("Suites", "").split():
                    return fields["URIs"].split()[0]
        else:
            for line in text.splitlines():
                words = re.sub(r"\[[^]]*\]", "", line.split("#")[0]).split()
                if len(words) >= 3 and words[0] == "deb" and words[2] == SUITE:
                    return words[1]
    return None


def unavailable() -> str | None:
    if os.geteuid() != 0:
        return "starts its own dockerd, as root (CI does)"
    missing = [t for t in ("docker", "dockerd", "debootstrap") if not shutil.which(t)]
    if missing:
        return f"needs {', '.join(missing)} (scripts/test.sh installs docker.io, debootstrap)"
    if apt_mirror() is None:
        return f"no apt source for Debian {SUITE} on this machine to debootstrap from"
    return None


UNAVAILABLE = unavailable()


def needs_docker(test):
    """Slow (one group: every such test shares the engine and the images) and skipped
    where no dockerd can be started; the other tests of this module need no Docker."""
    test = pytest.mark.skipif(UNAVAILABLE is not None, reason=str(UNAVAILABLE))(test)
    return pytest.mark.slow(minutes=4)(test)  # 3.5 min measured on two cores


def _poll(check, seconds: float, what: str):
    """check() until it returns something true, within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.2)
    raise AssertionError(f"{what}: not within {seconds} s")


@pytest.fixture(scope="module")
def engine():
    """A dockerd of our own; yields the environment that points `docker` at it."""
    folder = Path(tempfile.mkdtemp(prefix="dockerd-", dir="/tmp"))  # short: a socket's path
    sock = folder / "docker.sock"
    env = {**os.environ, "DOCKER_HOST": f"unix://{sock}"}
    with open(folder / "dockerd.log", "wb") as log:
        daemon = subprocess.Popen(
            ["dockerd", "--iptables=false", "--bridge=none", "--data-root", str(folder / "data"),
             "--exec-root", str(folder / "exec"), "--pidfile", str(folder / "dockerd.pid"),
             "-H", f"unix://{sock}"], stdout=log, stderr=subprocess.STDOUT,
            start_new_session=True)
    try:
        _poll(lambda: daemon.poll() is not None or subprocess.run(
            ["docker", "info"], env=env, capture_output=True).returncode == 0, 120,
            "dockerd answering")
        assert daemon.poll() is None, (folder / "dockerd.log").read_text()[-3000:]
        yield env
    finally:
        daemon.send_signal(signal.SIGTERM)  # it stops its containerd and unmounts
        try:
            daemon.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(daemon.pid, signal.SIGKILL)
            daemon.wait()
        _unmount_under(folder)
        shutil.rmtree(folder, ignore_errors=True)


def _unmount_under(folder: Path) -> None:
    """What dockerd leaves mounted in its folders (its network namespace's nsfs), deepest
    first, so that the folders can go."""
    mounts = [line.split()[1] for line in Path("/proc/mounts").read_text().splitlines()]
    for point in sorted((m for m in mounts if m.startswith(f"{folder}/")), reverse=True):
        subprocess.run(["umount", "--lazy", point], capture_output=True)


@pytest.fixture(scope="module")
def base_image(engine, tmp_path_factory):
    """Debian bookworm from this machine's apt mirror, as image BASE: setup.sh's apt-get
    reaches the same mirror (debootstrap writes it in the image's sources)."""
    root = tmp_path_factory.mktemp("rootfs")
    proc = subprocess.run(["debootstrap", "--variant=minbase", SUITE, str(root), apt_mirror()],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    bundle = next(Path(p) for p in CA_BUNDLES if p and Path(p).is_file())
    shutil.copyfile(bundle, root / "usr/local/share/host-ca.pem")
    tar = subprocess.Popen(["tar", "-C", str(root), "-c", "."], stdout=subprocess.PIPE)
    imported = subprocess.run(["docker", "import", "--change",
                               "ENV PIP_CERT=/usr/local/share/host-ca.pem", "-", BASE],
                              stdin=tar.stdout, env=engine, capture_output=True, text=True)
    tar.stdout.close()
    assert tar.wait() == 0 and imported.returncode == 0, imported.stderr
    shutil.rmtree(root, ignore_errors=True)
    return BASE


@pytest.fixture(scope="module")
def zip_path(tmp_path_factory):
    """hw1's zip, with a CPU torch wheel when pip finds one (its own wheel cache or
    find-links): otherwise setup.sh installs torch from an index."""
    folder = tmp_path_factory.mktemp("docker-zip")
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
                    "--only-binary=:all:", "-d", str(folder), "torch==2.13.0"],
                   capture_output=True, timeout=900)
    wheels = sorted(folder.glob("torch-2.13.0+cpu-cp311-*.whl"))
    return package.write_zip(ASSIGNMENT, folder / f"{ASSIGNMENT}.zip",
                             wheels[0] if wheels else None)


def _try(engine, *args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "autograder", "try-zip", *map(str, args)],
                          capture_output=True, text=True, timeout=1800, cwd=REPO, env=engine)


def _docker(engine, *args) -> str:
    proc = subprocess.run(["docker", *args], env=engine, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


class Watcher(threading.Thread):
    """The engine's own record of each try container while it exists: its HostConfig."""

    def __init__(self, engine):
        super().__init__(daemon=True)
        self.engine, self.seen, self.done = engine, {}, threading.Event()

    def run(self):
        while not self.done.wait(0.5):  # a try container lives for tens of seconds
            for name in _docker(self.engine, "ps", "--all", "--format", "{{.Names}}").split():
                if name.startswith("autograder-try-") and name not in self.seen:
                    proc = subprocess.run(["docker", "inspect", name], env=self.engine,
                                          capture_output=True, text=True)
                    if proc.returncode == 0:  # else already removed
                        self.seen[name] = json.loads(proc.stdout)[0]

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.join()


@pytest.fixture(scope="module")
def full(engine, base_image, zip_path, tmp_path_factory):
    """The full solution's first try (the image built), with what the engine said of
    its container."""
    kept = tmp_path_factory.mktemp("kept")
    with Watcher(engine) as watcher:
        proc = _try(engine, zip_path, EXAMPLES / "full_solution.ipynb", "--docker",
                    "--base-image", base_image, "--keep", kept)
    return proc, watcher.seen, kept


@needs_docker
def test_the_full_solution_gets_full_marks_in_a_container_of_gradescopes_defaults(full, engine):
    """Built by setup.sh, run at 768 MB with no swap and half a CPU, as root in
    /autograder; the instructor's view printed; the folder kept; no container left."""
    proc, seen, kept = full
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert "building image autograder-try:" in proc.stderr
    assert "As the instructor sees it:\n  score 18.0" in proc.stdout
    assert "sandbox: " in proc.stdout and "[after_published] " in proc.stdout
    assert "once grades are published: 18 of 18 tests, score 18.0" in proc.stdout
    assert json.loads((kept / "results" / "results.json").read_text())["score"] == 18.0
    assert (kept / "submission" / "full_solution.ipynb").is_file()
    assert len(seen) == 1, seen
    (container,) = seen.values()
    host = container["HostConfig"]
    assert host["Memory"] == host["MemorySwap"] == 768 * 2**20
    assert host["NanoCpus"] == 500_000_000
    assert container["Config"]["User"] in ("root", "0")
    assert container["Config"]["WorkingDir"] == "/autograder"
    assert _docker(engine, "ps", "--all", "--quiet") == ""


@needs_docker
def test_the_untouched_notebook_scores_0_from_the_same_image(full, engine, zip_path, base_image):
    """A second try of the same zip reuses the image: no build, the same image id."""
    images = _docker(engine, "images", "--quiet", try_docker.REPOSITORY)
    proc = _try(engine, zip_path, EXAMPLES / "untouched.ipynb", "--docker",
                "--base-image", base_image)
    assert proc.returncode == 0, proc.stderr[-5000:]
    assert "As the instructor sees it:\n  score 0.0" in proc.stdout
    assert "reusing image autograder-try:" in proc.stderr
    assert "building image" not in proc.stderr
    assert _docker(engine, "images", "--quiet", try_docker.REPOSITORY) == images
    assert _docker(engine, "ps", "--all", "--quiet") == ""


def _tiny_zip(path: Path, setup: str, run_autograder: str) -> Path:
    """A zip with only the two scripts Gradescope needs, executable."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, text in (("setup.sh", setup), ("run_autograder", run_autograder)):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16
            zf.writestr(info, f"#!/usr/bin/env bash\n{text}\n")
    return path


@needs_docker
def test_a_failing_setup_sh_and_a_run_over_the_time_limit_say_so_and_leave_nothing(
        engine, base_image, tmp_path, monkeypatch, capsys):
    """setup.sh's failure: "the image could not be built", the log's tail, no image and
    no container left. A run past the time limit (3 s here): stopped, said, removed."""
    monkeypatch.setenv("DOCKER_HOST", engine["DOCKER_HOST"])
    notebook = EXAMPLES / "untouched.ipynb"
    broken = _tiny_zip(tmp_path / "broken.zip", "echo the last words of setup >&2; exit 3",
                       "exit 0")
    assert try_docker.main(broken, notebook, base=base_image) == 1
    err = capsys.readouterr().err
    assert "try-zip: the image could not be built: setup.sh failed" in err
    assert "the last words of setup" in err
    assert _docker(engine, "images", "--quiet", try_docker.image_tag(broken, base_image)) == ""
    assert _docker(engine, "ps", "--all", "--quiet") == ""

    monkeypatch.setattr(try_zip, "TIME_LIMIT", 3)
    slow = _tiny_zip(tmp_path / "slow.zip", "true", "sleep 300")
    start = time.monotonic()
    assert try_docker.main(slow, notebook, base=base_image) == 1
    assert time.monotonic() - start < 120
    assert "run_autograder took more than Gradescope's 3 s and was stopped" in \
        capsys.readouterr().err
    assert _docker(engine, "ps", "--all", "--quiet") == ""


# Without Docker: what the command would ask of it.

def test_the_dockerfile_builds_as_gradescope_does():
    """The zip in /autograder/source, run_autograder copied beside it, then setup.sh run
    as root from the source folder; runs start in /autograder."""
    lines = try_docker.dockerfile("some/base:tag").splitlines()
    assert lines == [
        "FROM some/base:tag",
        "USER root",
        "COPY source /autograder/source",
        "RUN cp /autograder/source/run_autograder /autograder/run_autograder"
        " && chmod 0755 /autograder/run_autograder",
        "WORKDIR /autograder/source",
        "RUN bash ./setup.sh",
        "WORKDIR /autograder"]
    assert try_docker.DEFAULT_BASE == "gradescope/autograder-base:ubuntu-22.04"


def test_the_container_is_created_at_gradescopes_defaults():
    args = try_docker.create_args("autograder-try:abc", "autograder-try-1")
    assert args[:2] == ["docker", "create"]
    pairs = dict(zip(args[2:-2:2], args[3:-2:2]))
    assert pairs == {"--name": "autograder-try-1", "--memory": "768m", "--memory-swap": "768m",
                     "--cpus": "0.5", "--user": "root", "--workdir": "/autograder"}
    assert args[-2:] == ["autograder-try:abc", "/autograder/run_autograder"]


def test_the_image_is_named_by_the_zip_and_the_base(tmp_path):
    one = _tiny_zip(tmp_path / "one.zip", "true", "exit 0")
    other = _tiny_zip(tmp_path / "other.zip", "false", "exit 0")
    tag = try_docker.image_tag(one, "base:a")
    assert re.fullmatch(r"autograder-try:[0-9a-f]{16}", tag)
    assert tag == try_docker.image_tag(one, "base:a")
    assert tag != try_docker.image_tag(other, "base:a")
    assert tag != try_docker.image_tag(one, "base:b")


def test_the_upload_holds_the_notebook_the_metadata_and_an_empty_results_folder(tmp_path):
    import io
    import tarfile
    try_zip.unpack(_tiny_zip(tmp_path / "z.zip", "true", "exit 0"),
                   EXAMPLES / "untouched.ipynb", tmp_path / "root", {"id": 7})
    with tarfile.open(fileobj=io.BytesIO(try_docker.upload(tmp_path / "root"))) as tar:
        members = {m.name: m for m in tar.getmembers()}
        assert sorted(members) == ["results", "submission", "submission/untouched.ipynb",
                                   "submission_metadata.json"]
        assert json.load(tar.extractfile("submission_metadata.json")) == {"id": 7}
    assert all(m.uid == 0 and m.gid == 0 for m in members.values())


def test_no_docker_engine_is_one_line_and_exit_2_with_nothing_done(tmp_path, monkeypatch, capsys):
    """DOCKER_HOST pointing at nothing, or no docker command: one line, exit 2, no
    folder unpacked."""
    zip_path = _tiny_zip(tmp_path / "z.zip", "true", "exit 0")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    argv = ["try-zip", str(zip_path), str(EXAMPLES / "untouched.ipynb"), "--docker"]
    if shutil.which("docker"):
        monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/nothing.sock")
        assert cli.main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("try-zip --docker: no Docker engine answers") and \
            err.count("\n") == 1, err
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert cli.main(argv) == 2
    assert capsys.readouterr().err == \
        "try-zip --docker: no `docker` command on PATH (install Docker, or try without " \
        "--docker)\n"
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize("extra, message", [(["--docker", "--python", "python3"],
                                             "--python and --docker exclude each other"),
                                            (["--base-image", "x"], "--base-image needs --docker")])
def test_options_that_do_not_go_together(extra, message, tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["try-zip", "z.zip", "n.ipynb", *extra])
    assert exc.value.code == 2 and message in capsys.readouterr().err
