"""Does the workers' memory budget fit the memory the grader's process tree may
use (a container's limit), as the container's own cgroup files show it?"""
from __future__ import annotations

from pathlib import Path

from autograder.engine.isolation import cgroups, memory_budget

MB = 2**20


def _cgroupfs(tmp_path: Path, mounts: list[str], own: str) -> tuple[Path, Path]:
    mountinfo, own_file = tmp_path / "mountinfo", tmp_path / "cgroup"
    mountinfo.write_text("".join(f"{i} 1 0:{i} {m}\n" for i, m in enumerate(mounts, 30)))
    own_file.write_text(own)
    return mountinfo, own_file


def test_the_tightest_limit_of_the_own_cgroup_and_its_ancestors_counts(tmp_path):
    """cgroup v1: the container's own folder and its parents, as far as the
    mount shows them; "no limit" is v1's huge number."""
    fs = tmp_path / "memory"
    leaf = fs / "docker" / "abc"
    leaf.mkdir(parents=True)
    (fs / "memory.limit_in_bytes").write_text("9223372036854771712\n")
    (fs / "docker" / "memory.limit_in_bytes").write_text(str(2048 * MB))
    (leaf / "memory.limit_in_bytes").write_text(str(768 * MB))
    info, own = _cgroupfs(tmp_path, [f"/ {fs} rw - cgroup cgroup rw,memory"],
                          "4:memory:/docker/abc\n0::/\n")
    assert cgroups.tree_memory_limit(info, own) == 768 * MB
    (leaf / "memory.limit_in_bytes").write_text("9223372036854771712\n")
    assert cgroups.tree_memory_limit(info, own) == 2048 * MB


def test_a_containers_own_view_in_a_hybrid_layout(tmp_path):
    """A container's cgroup namespace on a hybrid host: its read-only memory
    mount shows its own cgroup as the root, beside mounts of the host's that
    it shadows (their root lies outside the namespace: "/.."), and a cgroup2
    mount without a limit. The v1 mount's limit counts."""
    fs, unified = tmp_path / "memory", tmp_path / "unified"
    fs.mkdir()
    unified.mkdir()
    (fs / "memory.limit_in_bytes").write_text(str(768 * MB))
    (unified / "memory.max").write_text("max\n")
    info, own = _cgroupfs(tmp_path, [
        f"/.. {fs} rw - cgroup cgroup rw,memory",
        f"/ {unified} rw - cgroup2 cgroup2 rw",
        f"/ {fs} ro - cgroup none rw,memory"], "4:memory:/\n0::/\n")
    assert cgroups.tree_memory_limit(info, own) == 768 * MB


def test_cgroup_v2_and_no_limit_at_all(tmp_path):
    fs = tmp_path / "cg"
    (fs / "job").mkdir(parents=True)
    (fs / "job" / "memory.max").write_text(f"{512 * MB}\n")
    info, own = _cgroupfs(tmp_path, [f"/ {fs} rw - cgroup2 cgroup2 rw"], "0::/job\n")
    assert cgroups.tree_memory_limit(info, own) == 512 * MB
    (fs / "job" / "memory.max").write_text("max\n")
    assert cgroups.tree_memory_limit(info, own) is None
    assert cgroups.tree_memory_limit(tmp_path / "missing", own) is None


def test_the_budget_is_lowered_to_fit_and_says_why():
    """Beside this process (the grader), `workers` workers at the budget must
    leave HEADROOM_MB of the limit; a budget that fits is left alone; a
    lowered one moves in steps, so that small changes of size change nothing."""
    used = memory_budget.anonymous_mb()
    assert used > 0
    roomy = int((used + memory_budget.HEADROOM_MB + 2 * 1024) * MB)
    assert memory_budget.fit(1024, roomy, ["self"], 2) == (1024, "")
    assert memory_budget.fit(1024, None, ["self"], 2) == (1024, "")
    tight = int((used + memory_budget.HEADROOM_MB + 300) * MB)
    fitted, note = memory_budget.fit(1024, tight, ["self"], 1)
    assert 300 - 2 * memory_budget.STEP_MB <= fitted <= 300 and "lowered to" in note
    assert fitted % memory_budget.STEP_MB == 0
    two, _ = memory_budget.fit(1024, tight, ["self"], 2)
    assert abs(two - fitted / 2) <= memory_budget.STEP_MB
    starved, note = memory_budget.fit(1024, int(used * MB), ["self"], 1)
    assert starved == memory_budget.MINIMUM_MB and "give the container more memory" in note
