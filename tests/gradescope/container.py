"""Gradescope's autograder container, reproduced on this machine.

Gradescope builds an image once per autograder zip (the zip unpacked into
/autograder/source, its setup.sh run as root), then runs run_autograder as root
in a fresh container of that image for every submission.

Reproduced here:

* the image: the zip unpacked into <image>/source, its own setup.sh run once as
  root with /autograder bound to <image>, Ubuntu's default PATH and no other
  environment (so python3 is the system's Python from apt and the venv goes to
  /autograder/venv; setup.sh's `chmod -R go-rwx /autograder/source` takes
  effect), run_autograder copied to /autograder/run_autograder. The venv's
  distributions are linked in from this interpreter's first, when it is a
  3.11 too (tests/security/system_python.py), so that setup.sh's pip finds
  them satisfied (hw1's image: 13 CPU-s instead of 39). Its install from nothing is
  tried in Docker (tests/gradescope/test_try_docker.py);
* each run, a fresh container: private mount, PID, cgroup, IPC and UTS
  namespaces (as Docker gives: containers side by side cannot see or signal
  each other's processes nor reach their SysV objects); in
  /autograder the upload alone in submission/, submission_metadata.json beside
  it, an empty results/; empty /tmp and /var/tmp on disk, a 64 MB tmpfs
  /dev/shm, empty /run, /home and /root (a fake SSH key in /root/.ssh); this
  machine's own files (this repository, /work, /opt, /srv, /mnt, the images'
  folder) hidden;
* Gradescope's defaults for the whole tree: 768 MB of memory and half a CPU (a
  CFS quota), in cgroups made for the run and mounted read-only at
  /sys/fs/cgroup, showing the container's own cgroup as their root (a cgroup
  namespace), as Docker mounts them;
* root with Docker's default capabilities and seccomp profile
  (tests/security/dockerlike.py), optionally with Landlock's system calls
  refused (ENOSYS), as on a host kernel without Landlock;
* run_autograder run as Gradescope runs it: cwd /autograder, a minimal
  environment, results read from /autograder/results/results.json.

Not reproduced: the container's own network namespace (it shares this
machine's; the workers' seccomp filter refuses every socket either way);
Ubuntu 22.04 itself (the base is this machine's Debian 12, whose
python3 is 3.11, so setup.sh takes its first branch where 22.04 takes its
python3.11 one, and the container's /usr and /etc are this machine's);
Gradescope's harness (how it copies the upload in and results out, its own
10-minute timer); the page cache of this machine's /usr (the interpreter's own
files), cached already and charged elsewhere (the venv's pages, torch's among
them, are dropped before each run so that the container pays for reading them,
as a fresh one does); memory.oom.group, which Docker leaves off.
"""
from __future__ import annotations

import fcntl
import json
import os
import queue
import re
import shlex
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from autograder.gradescope import try_docker, try_zip
from tests.security.cgroup import MemoryLimit
from tests.security.system_python import BASE, link_installed  # the workers read the venv

REPO = Path(__file__).resolve().parents[2]
MEMORY = try_docker.MEMORY_MB * 2**20
"""Gradescope's default memory for a container."""
CPU = try_docker.CPUS
"""Gradescope's default CPU for a container: half a vCPU."""
PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
MOUNT_POINT = Path("/autograder")
HIDDEN = ("/home", "/work", "/opt", "/srv", "/mnt", "/media")
FRESH = ("/tmp", "/var/tmp")
"""Empty in a new container, on its disk (Docker's writable layer, not memory)."""
SHM_MB = 64
"""Docker's /dev/shm: a tmpfs of 64 MB."""
HARNESS = (REPO / "tests" / "security" / "dockerlike.py",
           REPO / "autograder" / "kernel" / "seccomp.py")


def unavailable() -> str | None:
    """Why a container cannot be made here, or None."""
    if os.geteuid() != 0:
        return "makes namespaces, cgroups and an image as root (CI does)"
    missing = [t for t in ("unshare", "setpriv", "apt-get") if not shutil.which(t)]
    if missing:
        return f"needs {', '.join(missing)}"
    with MemoryLimit(MEMORY, CPU) as limit:
        if limit.path is None or "cpu" not in limit.folders:
            return f"needs a memory and a cpu cgroup of its own: {limit.reason or 'no cpu'}"
    return None


@dataclass
class Run:
    results: dict | None
    """results.json as Gradescope would read it (None: none was written)."""
    output: str
    """What run_autograder printed (stdout and stderr): Gradescope shows it to instructors."""
    seconds: float
    """Wall time of the container, start to exit."""
    peak: int | None
    """The container's memory peak as its cgroup counts it, bytes: page cache
    included, which fills whatever is free (the kernel reclaims it first)."""
    resident: int | None
    """The peak of what the container held that reclaim cannot drop (anonymous
    and shared memory, mapped files), sampled every 50 ms, bytes."""
    oom_kills: int | None
    returncode: int

    @property
    def mode_lines(self) -> list[str]:
        return [line for line in self.output.splitlines() if line.startswith("sandbox: ")]


class Images:
    """Autograder images, built as Gradescope builds them, sharing one venv
    (setup.sh installs the same pinned requirements for every assignment: the
    first build finds them linked in, the next find them installed).

    Containers run side by side, one per lane; each lane has its own copy of
    the venv (the built one's files are links to this interpreter's), whose
    pages are dropped from the page cache before each run, so that a run is
    charged, as a fresh Gradescope container is, for reading torch's files
    (about 150 MB), and not a neighbour."""

    def __init__(self, lanes: int = 1):
        BASE.mkdir(mode=0o755, exist_ok=True)
        self.base = Path(tempfile.mkdtemp(prefix="images-", dir=BASE))
        self.base.chmod(0o755)
        self.venv = self.base / "venv"
        self.venv.mkdir()
        link_installed(REPO / "requirements.txt", self.venv)  # the zips' requirements.txt
        self.lanes = lanes
        self.free: queue.Queue[Path] | None = None  # the lanes' venvs, made after the builds
        self.large: dict[Path, list[str]] = {}  # a lane's venv -> its files worth dropping
        MOUNT_POINT.mkdir(exist_ok=True)  # an empty mount point on this machine

    def lane(self) -> Path:
        """A lane's venv, for one run; give it back with `self.free.put`."""
        if self.free is None:
            self.free = queue.Queue()
            for n in range(self.lanes):
                copy = self.base / f"venv-{n}"
                subprocess.run(["cp", "-a", str(self.venv), str(copy)], check=True)
                self.large[copy] = _large_files(copy)
                self.free.put(copy)
        venv = self.free.get()
        _drop_page_cache(self.large[venv])
        return venv

    def build(self, zip_path: Path, name: str) -> "Image":
        """Unpack the zip and run its setup.sh; raises with setup.sh's output when it fails."""
        image = self._unpack(zip_path, name)
        inner = (f"mount --bind {image.folder} {MOUNT_POINT} && "
                 f"mount --bind {self.venv} {MOUNT_POINT}/venv && cd {MOUNT_POINT}/source && "
                 f"exec env -i PATH={PATH} HOME=/root DEBIAN_FRONTEND=noninteractive "
                 "bash ./setup.sh")
        BASE.mkdir(mode=0o755, exist_ok=True)
        with open(BASE / ".setup.lock", "w") as lock:  # setup.sh runs apt-get on this
            fcntl.flock(lock, fcntl.LOCK_EX)  # machine's dpkg: one at a time (pytest-xdist)
            proc = subprocess.run(["unshare", "--mount", "sh", "-ec", inner], capture_output=True,
                                  text=True, timeout=1800)
        if proc.returncode != 0:
            raise RuntimeError(f"setup.sh failed ({proc.returncode}):\n{proc.stdout[-3000:]}"
                               f"\n{proc.stderr[-3000:]}")
        shutil.copy2(image.folder / "source" / "run_autograder", image.folder / "run_autograder")
        image.setup_log = proc.stdout + proc.stderr
        return image

    def variant(self, image: "Image", name: str, limits: dict[str, float]) -> "Image":
        """A copy of a built image whose grading config has other [limits]."""
        copy = Image(self, self.base / name)
        shutil.copytree(image.folder, copy.folder, symlinks=True)
        for config in (copy.folder / "source" / "grading_config").glob("*.toml"):
            text = config.read_text()
            for key, value in limits.items():
                text, count = re.subn(rf"(?m)^{key}\s*=\s*[^#\n]*", f"{key} = {value} ", text)
                if not count:
                    text = text.replace("[limits]\n", f"[limits]\n{key} = {value}\n")
            config.write_text(text)
        return copy

    def _unpack(self, zip_path: Path, name: str) -> "Image":
        image = Image(self, self.base / name)
        image.folder.mkdir(mode=0o755)
        try_zip.unpack_zip(zip_path, image.folder / "source")
        for mount_point in ("venv", "submission", "results"):
            (image.folder / mount_point).mkdir(mode=0o755)
        (image.folder / "submission_metadata.json").touch()
        return image

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)


class Image:
    def __init__(self, images: Images, folder: Path):
        self.images = images
        self.folder = folder
        self.setup_log = ""

    def run(self, files: dict[str, bytes], metadata: dict | None = None,
            landlock: bool = True, secret: str = "") -> Run:
        """One submission in a fresh container: `files` uploaded, Gradescope's
        `metadata` beside them, `secret` in /root/.ssh/id_ed25519."""
        run = Path(tempfile.mkdtemp(prefix="run-", dir=self.images.base))
        try:
            (run / "submission").mkdir()
            (run / "results").mkdir()
            for name, data in files.items():
                (run / "submission" / name).write_bytes(data)
            (run / "metadata.json").write_text(json.dumps(metadata or {}))
            (run / "key").write_text(secret)
            venv = self.images.lane()
            try:
                return self._run(run, venv, landlock)
            finally:
                self.images.free.put(venv)
        finally:
            shutil.rmtree(run, ignore_errors=True)

    def _run(self, run: Path, venv: Path, landlock: bool) -> Run:
        harness = " ".join(shlex.quote(str(p)) for p in HARNESS)
        hide = [*HIDDEN, str(REPO), str(BASE)]
        lines = [
            f"mount --bind {self.folder} {MOUNT_POINT}",
            f"mount --bind {venv} {MOUNT_POINT}/venv",
            f"mount --bind {run}/submission {MOUNT_POINT}/submission",
            f"mount --bind {run}/results {MOUNT_POINT}/results",
            f"mount --bind {run}/metadata.json {MOUNT_POINT}/submission_metadata.json",
            "mount -t tmpfs -o mode=0755 none /run", "mkdir /run/harness",
            f"cp {harness} /run/harness/",  # before the repository is hidden
            "mount -t tmpfs -o mode=0700 none /root", "mkdir -m 700 /root/.ssh",
            f"cp {run}/key /root/.ssh/id_ed25519",
            *(f"mkdir -m 1777 {run}/disk{d.replace('/', '-')} && mount --bind "
              f"{run}/disk{d.replace('/', '-')} {d}" for d in FRESH),  # the container's disk
            f"mount -t tmpfs -o mode=1777,size={SHM_MB}m none /dev/shm",
            *(f"if [ -d {shlex.quote(d)} ]; then mount -t tmpfs -o mode=0755 none "
              f"{shlex.quote(d)}; fi" for d in hide),
            *_cgroup_mounts(),
            f"cd {MOUNT_POINT}",
            f"exec env -i PATH={PATH} HOME=/root LANG=C.UTF-8 {MOUNT_POINT}/venv/bin/python "
            "/run/harness/dockerlike.py " + ("" if landlock else "--refuse-landlock ")
            + f"{MOUNT_POINT}/run_autograder",
        ]
        container = shlex.join(["unshare", "--mount", "--pid", "--fork", "--mount-proc",
                                "--cgroup", "--ipc", "--uts", "sh", "-ec", "\n".join(lines)])
        with MemoryLimit(MEMORY, CPU) as limit, tempfile.TemporaryFile("w+") as out:
            start = time.monotonic()
            proc = subprocess.Popen(["sh", "-c", limit.wrap("exec " + container)],
                                    stdout=out, stderr=subprocess.STDOUT, text=True)
            resident = 0
            while proc.poll() is None:  # the peak of what page cache reclaim cannot give back
                resident = max(resident, limit.resident() or 0)
                if time.monotonic() - start > try_zip.TIME_LIMIT + 300:
                    proc.kill()
                time.sleep(0.05)
            seconds = time.monotonic() - start
            peak, oom_kills = limit.peak(), limit.oom_kills()
            out.seek(0)
            output = out.read()
        path = run / "results" / "results.json"
        results = json.loads(path.read_text()) if path.is_file() else None
        return Run(results, output, seconds, peak, resident or None, oom_kills, proc.returncode)


def _large_files(folder: Path) -> list[str]:
    """The files below `folder` whose pages are worth dropping (64 KB and more), listed
    once per lane: walking the venv's 45,000 files before every run cost 0.3 s of CPU."""
    found = []
    for dirpath, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(dirpath, name)
            if not os.path.islink(path) and os.path.getsize(path) >= 65536:
                found.append(path)
    return found


def _drop_page_cache(paths: list[str]) -> None:
    """Drop the cached pages of these files (none of them is mapped by a running
    process: their lane is free)."""
    for path in paths:
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def _cgroup_mounts() -> list[str]:
    """The container's read-only /sys/fs/cgroup, the hierarchies this machine
    has (v1: each controller, v2: the unified one), rooted at its own cgroup."""
    mounted = []
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        left, _, right = line.partition(" - ")
        kind, options = right.split()[0], right.split()[2].split(",")
        point = left.split()[4]
        if kind == "cgroup2" and point == "/sys/fs/cgroup":
            return ["mount -t cgroup2 -o ro,nosuid,nodev,noexec none /sys/fs/cgroup"]
        if kind == "cgroup":
            controllers = [o for o in options if o not in ("rw", "ro") and "=" not in o]
            if controllers:
                mounted.append(",".join(controllers))
    lines = ["mount -t tmpfs -o mode=0755 none /sys/fs/cgroup"]
    for controllers in mounted:
        folder = f"/sys/fs/cgroup/{controllers}"
        lines += [f"mkdir {folder}",
                  f"mount -t cgroup -o ro,nosuid,nodev,noexec,{controllers} none {folder}"]
    return lines + ["mount -o remount,ro,bind /sys/fs/cgroup"]
