"""Reference solution of hw2_positions_params; the hidden tests hold it to torch's own modules."""
from __future__ import annotations

import numbers

import numpy as np


def _is_int(x) -> bool:
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def sinusoidal_pe(n_pos, d):
    if not _is_int(d) or d <= 0 or d % 2 != 0:
        raise ValueError(f"d must be a positive even int, got {d!r}")
    if not _is_int(n_pos) or n_pos < 0:
        raise ValueError(f"n_pos must be an int >= 0, got {n_pos!r}")
    pos = np.arange(n_pos, dtype=np.float64)[:, None]  # (n_pos, 1)
    freq = 10000.0 ** (-np.arange(0, d, 2, dtype=np.float64) / d)  # (d/2,) omega_i = 10000^(-2i/d)
    angle = pos * freq  # (n_pos, d/2)
    pe = np.empty((n_pos, d), dtype=np.float64)
    pe[:, 0::2] = np.sin(angle)  # even columns 2i
    pe[:, 1::2] = np.cos(angle)  # odd columns 2i+1
    return pe


def count_parameters(model, trainable_only=False):
    # parameters() yields each Parameter object once, however many modules hold it,
    # and never yields buffers
    return sum(p.numel() for p in model.parameters() if p.requires_grad or not trainable_only)


def _attention(d):
    return 4 * d * d + 4 * d  # W_q, W_k, W_v, W_o (d x d) and their biases


def _feed_forward(d, d_ff):
    return d * d_ff + d_ff + d_ff * d + d  # linear1 (d -> d_ff), linear2 (d_ff -> d), with biases


def encoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    return _attention(d) + _feed_forward(d, d_ff) + 2 * (2 * d)  # two LayerNorms: gamma, beta


def decoder_layer_param_count(d, d_ff=None):
    d_ff = 4 * d if d_ff is None else d_ff
    # masked self-attention, cross-attention, feed-forward, three LayerNorms
    return 2 * _attention(d) + _feed_forward(d, d_ff) + 3 * (2 * d)
