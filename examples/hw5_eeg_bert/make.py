"""Demo submissions of hw5_eeg_bert, made from the built student notebook.

    .venv/bin/python examples/hw5_eeg_bert/make.py     (after `python -m autograder build hw5_eeg_bert`)

Deterministic: the same student notebook gives byte-identical files.

    full_solution.ipynb     the solution's answers                          25 / 25
    partial_mistakes.ipynb  patches sample-major, layer_norm with ddof=1,
                            a causal mask in the attention, the loss over
                            every row; the other answers correct           low
    untouched.ipynb         the notebook as handed out                       0
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from autograder.build import solution_notebook, student_notebook  # noqa: E402
from autograder.build.examples import answers_of, fill  # noqa: E402
from autograder.build.transforms import serialise  # noqa: E402

import nbformat  # noqa: E402

ASSIGNMENT = "hw5_eeg_bert"

MISTAKES = {
    "patchify": '''\
def patchify(signal, patch_len):
    """Mistake: samples interleaved across channels (sample-major rows)."""
    signal = np.asarray(signal, dtype=np.float64)
    C, N = signal.shape
    if not isinstance(patch_len, int) or patch_len < 1 or N % patch_len:
        raise ValueError("bad patch_len")
    return signal.T.reshape(N // patch_len, C * patch_len)
''',
    "layer_norm": '''\
def layer_norm(x, eps=1e-5):
    """Mistake: the sample variance (ddof=1) instead of the population variance."""
    x = np.asarray(x, dtype=np.float64)
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, ddof=1, keepdims=True) + eps)
''',
    "bidirectional_self_attention": '''\
def bidirectional_self_attention(x, Wq, Wk, Wv, Wo, heads):
    """Mistake: a causal mask, as in a GPT-style decoder."""
    T, d = x.shape
    dk = d // heads
    split = lambda m: m.reshape(T, heads, dk).transpose(1, 0, 2)
    q, k, v = split(x @ Wq), split(x @ Wk), split(x @ Wv)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dk) + np.triu(np.full((T, T), -np.inf), 1)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(T, d) @ Wo, w
''',
    "masked_reconstruction_loss": '''\
def masked_reconstruction_loss(recon, target, masked):
    """Mistake: every row counts, masked or not."""
    if len(masked) == 0:
        raise ValueError("empty")
    return float(np.mean((recon - target) ** 2))
''',
}


def variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    return {
        "full_solution.ipynb": serialise(fill(student, full)),
        "partial_mistakes.ipynb": serialise(fill(student, {**full, **MISTAKES})),
        "untouched.ipynb": serialise(student),
    }


def main() -> int:
    student = nbformat.reads(student_notebook(ASSIGNMENT).decode("utf-8"), as_version=4)
    folder = Path(__file__).parent
    for name, data in sorted(variants(student, solution_notebook(ASSIGNMENT)).items()):
        path = folder / name
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
        print(path.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
