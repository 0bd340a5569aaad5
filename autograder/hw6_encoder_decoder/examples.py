"""Demo submissions of hw6_encoder_decoder in examples/hw6_encoder_decoder/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw6_encoder_decoder`) from the built student notebook.

    full_solution.ipynb     the solution's answers                          24.5 / 24.5
    partial_mistakes.ipynb  U(0, 1) weights as in the old notebook, keys and
                            values from the decoder in cross-attention, eos
                            dropped by greedy_decode, temperature multiplied
                            in; the other answers correct                    low
    untouched.ipynb         the notebook as handed out                       0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, fill, serialise

MISTAKES = {
    "xavier_uniform": '''\
def xavier_uniform(fan_in, fan_out, rng):
    """Mistake: U(0, 1) weights, all positive."""
    return rng.random((fan_in, fan_out))
''',
    "cross_attention": '''\
def cross_attention(y, h, Wq, Wk, Wv, Wo, heads):
    """Mistake: keys and values from the decoder (self-attention), not from h."""
    n, d = y.shape
    dk = d // heads
    split = lambda m: m.reshape(m.shape[0], heads, dk).transpose(1, 0, 2)
    q, k, v = split(y @ Wq), split(y @ Wk), split(y @ Wv)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dk)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ v).transpose(1, 0, 2).reshape(n, d) @ Wo, w
''',
    "greedy_decode": '''\
def greedy_decode(step, sos_id, eos_id, max_len):
    """Mistake: stops before appending eos."""
    ids = [sos_id]
    while len(ids) - 1 < max_len:
        nxt = int(np.argmax(step(ids)))
        if nxt == eos_id:
            break
        ids.append(nxt)
    return ids
''',
    "sample_next": '''\
def sample_next(logits, temperature, rng, top_k=None):
    """Mistake: multiplies the logits by the temperature."""
    if temperature <= 0 or (top_k is not None and top_k < 1):
        raise ValueError("bad arguments")
    z = np.asarray(logits, dtype=float) * temperature
    if top_k is not None:
        z = np.where(z >= np.sort(z)[-min(top_k, len(z))], z, -np.inf)
    p = np.exp(z - z.max())
    return int(rng.choice(len(p), p=p / p.sum()))
''',
}


def variants(student, solution) -> dict[str, bytes]:
    full = answers_of(solution)
    return {
        "full_solution.ipynb": serialise(fill(student, full)),
        "partial_mistakes.ipynb": serialise(fill(student, {**full, **MISTAKES})),
        "untouched.ipynb": serialise(student),
    }
