"""Running a shell script (the grader) in each sandbox mode this machine can give.

    root           as root: namespaces
    user           as a dedicated unprivileged user the test creates: user namespaces
    container      as root with Docker's default capabilities and seccomp profile
                   (tests/security/dockerlike.py) and no cgroups: Landlock
    container-uid  the same with Landlock's system calls refused (a kernel without
                   it): uid

In both container modes file permissions keep workers out of the secret
folders (of stat() too, which Landlock does not govern), so, as on Gradescope,
the grader runs from a root-only copy of what its zip ships, on Debian's
python3.11 (tests/security/system_python.py), root's home is closed, and this
machine's other copies of the course (this repository, /work, /home) are out of
sight, as they are out of a container's.

Each run happens inside a private PID and mount namespace (so a defence that
fails cannot take this machine's other processes with it), where the grading
user's home holds a fake SSH key, the secret an attack tries to read. The
machine itself is left as it was: the key, and for the user mode a way to the
interpreter when it lives in root's home, exist in that mount namespace only.
Scripts run the grader with python(mode), from source(mode, work).
"""
from __future__ import annotations

import os
import pwd
import shlex
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from tests.security import system_python

REPO = Path(__file__).resolve().parents[2]
MODES = {"root": "namespaces", "user": "userns", "container": "landlock",
         "container-uid": "uid"}
CONTAINERS = ("container", "container-uid")
"""The modes run as Gradescope runs the grader (from the zip's root-only copy)."""
HIDDEN = ("/work", "/home", "/opt", "/srv", "/mnt")
"""Out of sight in the containers (besides this repository): where copies of the course live."""
TEST_USER = "autograder-test"


def unavailable(mode: str) -> str | None:
    """Why `mode` cannot be run here, or None."""
    if os.geteuid() != 0:
        return "runs as root (CI does): it sets up each mode itself"
    missing = [t for t in ("unshare", "setpriv") + (("useradd",) if mode == "user" else ())
               if not shutil.which(t)]
    if missing:
        return f"needs {', '.join(missing)}"
    if mode in CONTAINERS and system_python.unavailable():
        return system_python.unavailable()
    if mode == "user":
        user = grading_user()
        probe = subprocess.run(["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}",
                                "--init-groups", "unshare", "-U", "true"], capture_output=True)
        if probe.returncode != 0:
            return "this machine refuses unprivileged user namespaces"
    return None


def grading_user(mode: str = "user") -> pwd.struct_passwd:
    """root, or the dedicated unprivileged user (created once, with a home)."""
    if mode != "user":
        return pwd.getpwuid(0)
    try:
        return pwd.getpwnam(TEST_USER)
    except KeyError:
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/sh", TEST_USER], check=True)
        return pwd.getpwnam(TEST_USER)


def workdir(mode: str) -> Path:
    """A folder the grading user can use (pytest's own are root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="autograder-modes-"))
    folder.chmod(0o755)
    if mode == "user":
        user = grading_user()
        os.chown(folder, user.pw_uid, user.pw_gid)
    return folder


def python(mode: str) -> str:
    """The interpreter that runs the grader in `mode`."""
    return str(system_python.venv()) if mode in CONTAINERS else sys.executable


def source(mode: str, work: Path) -> Path:
    """Where the grader's package lives in `mode`: this repository, or in the
    containers a copy of what the hw1 zip ships, root-only (setup.sh's chmod)."""
    if mode not in CONTAINERS:
        return REPO
    folder = work / "source"
    if not folder.exists():
        from autograder.gradescope import package
        shipped = package.write_zip("hw1_attention", work / "hw1.zip")
        with zipfile.ZipFile(shipped) as zf:
            zf.extractall(folder)
        shipped.unlink()
        subprocess.run(["chmod", "-R", "go-rwx", str(folder)], check=True)
        harness = work / "harness"  # dockerlike.py, beside its seccomp module: the repository is hidden
        harness.mkdir()
        for path in (REPO / "tests" / "security" / "dockerlike.py",
                     REPO / "autograder" / "kernel" / "seccomp.py"):
            shutil.copy(path, harness)
    return folder


def command(mode: str, script: str, secret: str, work: Path) -> list[str]:
    """`script` run by sh as the mode's grading user, in its environment, from source(mode)."""
    user = grading_user(mode)
    prelude = [*_root_home(mode, work), *_key(user.pw_dir, secret, user)]
    script = f"cd {shlex.quote(str(source(mode, work)))} && {script}"
    if mode in CONTAINERS:
        prelude += [f"if [ -d {d} ]; then mount -t tmpfs -o mode=0755 none {d}; fi"
                    for d in (*HIDDEN, shlex.quote(str(REPO)))]
        prelude.append("mount -t tmpfs -o ro,size=4k none /sys/fs/cgroup")  # Docker's is read-only
        refuse = ["--refuse-landlock"] if mode == "container-uid" else []
        run = [python(mode), str(work / "harness" / "dockerlike.py"), *refuse, "sh", "-c", script]
    elif mode == "user":
        run = ["setpriv", f"--reuid={user.pw_uid}", f"--regid={user.pw_gid}", "--init-groups",
               "env", f"HOME={user.pw_dir}", f"USER={user.pw_name}", "sh", "-c", script]
    else:
        run = ["sh", "-c", script]
    shell = " && ".join(prelude + ["exec " + shlex.join(run)])
    return ["unshare", "--pid", "--fork", "--mount-proc", "sh", "-ec", shell]


def _root_home(mode: str, work: Path) -> list[str]:
    """Replace /root by a tmpfs holding what the run needs of it: everything
    but .ssh as root; for the user mode only the folders on the way to the
    interpreter, the virtual environment and the repository: 0711, so that
    the user can reach them. In the containers, whose Python is the system's,
    nothing of root's home is needed, and it is closed (0700), as on Gradescope."""
    if mode in CONTAINERS:
        return ["mount -t tmpfs -o mode=0700 none /root"]
    needed = {Path(p).resolve() for p in (sys.base_prefix, sys.prefix, sys.executable, REPO)}
    if mode == "user":
        children = sorted({p.relative_to("/root").parts[0] for p in needed
                           if p.is_relative_to("/root") and p != Path("/root")})
    else:
        children = sorted(c for c in os.listdir("/root") if c != ".ssh")
    keep = work / "real-root"
    lines = [f"mkdir -p {keep}", f"mount --bind /root {keep}",
             f"mount -t tmpfs -o mode={'0700' if mode == 'root' else '0711'} none /root"]
    for child in children:
        stub = "mkdir" if (Path("/root") / child).is_dir() else "touch"
        lines += [f"{stub} {shlex.quote('/root/' + child)}",
                  f"mount --bind {shlex.quote(str(keep / child))} {shlex.quote('/root/' + child)}"]
    return lines


def _key(home: str, secret: str, user: pwd.struct_passwd) -> list[str]:
    ssh = shlex.quote(f"{home}/.ssh")
    return [f"mkdir -p {ssh}", f"printf %s {shlex.quote(secret)} > {ssh}/id_ed25519",
            f"chown -R {user.pw_uid}:{user.pw_gid} {ssh}", f"chmod 700 {ssh}",
            f"chmod 600 {ssh}/id_ed25519"]
