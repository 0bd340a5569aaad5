"""Demo submissions of hw2_positions_params in examples/hw2_positions_params/,
made by `python -m autograder build` (or `python -m autograder.build.examples
hw2_positions_params`) from the built student notebook. Out of 26 points:

    full_solution.ipynb     the solution's answers                          26
    partial_mistakes.ipynb  [sin..., cos...] halves layout, parameters
                            summed from the state dict, the source notes'
                            "8 d^2" per encoder layer, decoder untouched    low
    typical_slips.ipynb     float32 position table, trainable_only ignored,
                            encoder without its LayerNorms, decoder without
                            its third LayerNorm: each loses a little          mid
    untouched.ipynb         the notebook as handed out                        0
"""
from __future__ import annotations

from autograder.build.examples import answers_of, fill, serialise

PE_HALVES = '''\
def sinusoidal_pe(n_pos, d):
    """All sines first, then all cosines (not interleaved)."""
    if not isinstance(d, int) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)
'''

PE_FLOAT32 = '''\
def sinusoidal_pe(n_pos, d):
    """Computed in torch's default float32, then converted to float64."""
    if not isinstance(d, int) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")
    pos = torch.arange(n_pos).float().unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
    pe = torch.zeros(n_pos, d)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    return pe.numpy().astype(np.float64)
'''

COUNT_STATE_DICT = '''\
def count_parameters(model, trainable_only=False):
    """Sums the state dict: buffers count, and tied weights count twice."""
    if trainable_only:
        return sum(p.numel() for p in model.parameters() if p.requires_grad)
    return sum(t.numel() for t in model.state_dict().values())
'''

COUNT_IGNORES_FLAG = '''\
def count_parameters(model, trainable_only=False):
    """Right count, but trainable_only is ignored."""
    return sum(p.numel() for p in model.parameters())
'''

ENCODER_8D2 = '''\
def encoder_layer_param_count(d, d_ff=None):
    """The source notes' rule of thumb."""
    return 8 * d * d
'''

ENCODER_NO_NORMS = '''\
def encoder_layer_param_count(d, d_ff=None):
    """Attention and feed-forward with biases, but no LayerNorms."""
    d_ff = 4 * d if d_ff is None else d_ff
    return 4 * d * d + 4 * d + 2 * d * d_ff + d_ff + d
'''

DECODER_TWO_NORMS = '''\
def decoder_layer_param_count(d, d_ff=None):
    """Two attentions and the feed-forward network, but only two LayerNorms."""
    d_ff = 4 * d if d_ff is None else d_ff
    return 2 * (4 * d * d + 4 * d) + 2 * d * d_ff + d_ff + d + 4 * d
'''


def variants(student, solution) -> dict[str, bytes]:
    return {
        "full_solution.ipynb": serialise(fill(student, answers_of(solution))),
        "partial_mistakes.ipynb": serialise(fill(student, {
            "sinusoidal_pe": PE_HALVES, "count_parameters": COUNT_STATE_DICT,
            "encoder_layer_param_count": ENCODER_8D2})),
        "typical_slips.ipynb": serialise(fill(student, {
            "sinusoidal_pe": PE_FLOAT32, "count_parameters": COUNT_IGNORES_FLAG,
            "encoder_layer_param_count": ENCODER_NO_NORMS,
            "decoder_layer_param_count": DECODER_TWO_NORMS})),
        "untouched.ipynb": serialise(student),
    }
