"""Demo submissions of hw5_eeg_bert in examples/hw5_eeg_bert/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw5_eeg_bert`) from the built student notebook.

    full_solution.ipynb     the solution's answers                          25 / 25
    partial_mistakes.ipynb  patches sample-major, layer_norm with ddof=1,
                            a causal mask in the attention, the loss over
                            every row; the other answers correct           low
    untouched.ipynb         the notebook as handed out                       0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, fill, serialise

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
