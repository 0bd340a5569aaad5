"""Known mistakes of hw2_positions_params, each explained for the student.

Each mistake is the stub written wrong, as students write it (the corpus's
buggy variants, tests/assignments/corpus/hw2_positions_params/buggy/, make
them): the grader replays it, in the trusted process only, on the inputs of a
failing test and names it when the student's answers are its answers (see
autograder/engine/diagnoses/). Sections are the master's headings.
count_parameters' argument is a model in the worker: its mistakes count the
model's twin, the same model built here by the test (test_count_parameters.py),
and only read it. A count that always filters on requires_grad is declared
but never named: on the first model its test counts (biases frozen) it gives
the count of the weights alone, and declared it keeps that test from naming
count_weights_only instead. Float32 arithmetic converted to float64 at the end
is named only when computed as PyTorch's tutorial does (pe_float32_torch): the
answers of other float32 formulas differ from it as much as from the reference.
"""
import math
from dataclasses import replace

import numpy as np
import torch

from autograder.hw2_positions_params import reference
from autograder.testing import Diagnosis, accepted_unchecked, refused_with_assert

CODE = "Part 1, \"The sinusoidal code\""
PART3 = "Part 3: an encoder layer, with pen and paper"
PART4 = "Part 4: a decoder layer"
PART2 = "Part 2: counting parameters with PyTorch"


def _check(n_pos, d):
    if not isinstance(d, int) or isinstance(d, bool) or d <= 0 or d % 2:
        raise ValueError("d")
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 0:
        raise ValueError("n_pos")


def _pe(n_pos, d, exponents, positions=None, swap=False, dtype=np.float64):
    p = np.arange(n_pos) if positions is None else positions
    angle = p[:, None] / 10000 ** exponents
    pe = np.zeros((n_pos, d), dtype=dtype)
    pe[:, 0::2], pe[:, 1::2] = (np.cos(angle), np.sin(angle)) if swap else (np.sin(angle),
                                                                              np.cos(angle))
    return pe


def pe_swapped(n_pos, d):
    _check(n_pos, d)
    return _pe(n_pos, d, np.arange(0, d, 2) / d, swap=True)


def pe_exponent_i_over_d(n_pos, d):
    _check(n_pos, d)
    return _pe(n_pos, d, np.arange(d // 2) / d)


def pe_exponent_per_column(n_pos, d):
    _check(n_pos, d)
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(d) / d)
    pe = np.sin(angle)
    pe[:, 1::2] = np.cos(angle[:, 1::2])
    return pe


def pe_from_one(n_pos, d):
    _check(n_pos, d)
    return _pe(n_pos, d, np.arange(0, d, 2) / d, positions=np.arange(1, n_pos + 1))


def pe_halves(n_pos, d):
    _check(n_pos, d)
    angle = np.arange(n_pos)[:, None] / 10000 ** (np.arange(0, d, 2) / d)
    return np.concatenate([np.sin(angle), np.cos(angle)], axis=1)


def pe_float32(n_pos, d):
    _check(n_pos, d)
    return _pe(n_pos, d, np.arange(0, d, 2) / d, dtype=np.float32)


def pe_tensor(n_pos, d):
    _check(n_pos, d)
    pos = torch.arange(n_pos, dtype=torch.float64)[:, None]
    angle = pos / 10000 ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
    return torch.stack([angle.sin(), angle.cos()], -1).reshape(n_pos, d)


def pe_rejects_zero(n_pos, d):
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 1:
        raise ValueError("n_pos")
    _check(n_pos, d)
    return _pe(n_pos, d, np.arange(0, d, 2) / d)


def pe_float32_torch(n_pos, d):
    _check(n_pos, d)
    # PyTorch's tutorial formula, in torch's default float32: the student's answers
    # match it only when computed the same way (rtol=0, atol=1e-9 below)
    pos = torch.arange(n_pos).float().unsqueeze(1)
    div = torch.exp(torch.arange(0, d, 2).float() * (-math.log(10000.0) / d))
    pe = torch.zeros(n_pos, d)
    pe[:, 0::2] = torch.sin(pos * div)
    pe[:, 1::2] = torch.cos(pos * div)
    return pe.numpy().astype(np.float64)


def _ints(args, kwargs) -> bool:
    """Whether sinusoidal_pe's call has int sizes (a bad one is then a wrong value)."""
    return all(type(x) is int for x in (*args, *kwargs.values()))


def _width(d, d_ff, default=None):
    return (4 * d if default is None else default) if d_ff is None else d_ff


def enc_one_ffn_bias(d, d_ff=None):
    f = _width(d, d_ff)
    return 4 * d * d + 4 * d + 2 * d * f + f + 4 * d


def enc_no_biases(d, d_ff=None):
    return 4 * d * d + 2 * d * _width(d, d_ff) + 4 * d


def enc_no_norms(d, d_ff=None):
    f = _width(d, d_ff)
    return 4 * d * d + 4 * d + 2 * d * f + f + d


def enc_no_output_projection(d, d_ff=None):
    f = _width(d, d_ff)
    return 3 * d * d + 3 * d + 2 * d * f + f + d + 4 * d


def enc_norm_scale_only(d, d_ff=None):
    f = _width(d, d_ff)
    return 4 * d * d + 4 * d + 2 * d * f + f + d + 2 * d


def enc_default_2048(d, d_ff=None):
    f = _width(d, d_ff, 2048)
    return 4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d


def enc_float(d, d_ff=None):
    f = 4.0 * d if d_ff is None else d_ff
    return 4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d


def enc_8d2(d, d_ff=None):
    return 8 * d * d


def enc_12d2(d, d_ff=None):
    return 12 * d * d


def _ffn(d, f):
    return 2 * d * f + f + d


def dec_cross_kv_only(d, d_ff=None):
    return (4 * d * d + 4 * d) + (2 * d * d + 2 * d) + _ffn(d, _width(d, d_ff)) + 6 * d


def dec_cross_no_bias(d, d_ff=None):
    return (4 * d * d + 4 * d) + 4 * d * d + _ffn(d, _width(d, d_ff)) + 6 * d


def dec_default_2048(d, d_ff=None):
    return 2 * (4 * d * d + 4 * d) + _ffn(d, _width(d, d_ff, 2048)) + 6 * d


def dec_no_cross(d, d_ff=None):
    return 4 * d * d + 4 * d + _ffn(d, _width(d, d_ff)) + 4 * d


def dec_16d2(d, d_ff=None):
    return 16 * d * d


def dec_two_norms(d, d_ff=None):
    return 2 * (4 * d * d + 4 * d) + _ffn(d, _width(d, d_ff)) + 4 * d


def count_always_trainable(model, trainable_only=False):
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def count_ignores_trainable_only(model, trainable_only=False):
    return sum(p.numel() for p in model.parameters())


def count_tied_twice(model, trainable_only=False):
    return sum(p.numel() for module in model.modules() for p in module.parameters(recurse=False)
               if p.requires_grad or not trainable_only)


def count_with_buffers(model, trainable_only=False):
    params = sum(p.numel() for p in model.parameters() if p.requires_grad or not trainable_only)
    return params + sum(b.numel() for b in model.buffers())


def count_tensor(model, trainable_only=False):
    return torch.tensor(sum(p.numel() for p in model.parameters()
                            if p.requires_grad or not trainable_only))


def count_tensors(model, trainable_only=False):
    return len([p for p in model.parameters() if p.requires_grad or not trainable_only])


def count_weights_only(model, trainable_only=False):
    return sum(p.numel() for name, p in model.named_parameters()
               if name.endswith("weight") and (p.requires_grad or not trainable_only))


_PE = "sinusoidal_pe"
_ENC = "encoder_layer_param_count"
_DEC = "decoder_layer_param_count"
_COUNT = "count_parameters"
DIAGNOSES = [
    Diagnosis(_PE, pe_swapped,
              "sine and cosine are swapped; the sine goes in the even columns 2i and the "
              "cosine in the odd columns 2i+1, so position 0 reads 0, 1, 0, 1, ...", CODE),
    Diagnosis(_PE, pe_exponent_i_over_d,
              "the exponent is i/d instead of 2i/d; pair i turns at 1/10000^(2i/d), so "
              "the slowest pair comes close to 10000 only with the 2", CODE),
    Diagnosis(_PE, pe_exponent_per_column,
              "each column has its own frequency; the two columns 2i and 2i+1 of a pair "
              "share one frequency, 1/10000^(2i/d)", CODE),
    Diagnosis(_PE, pe_from_one,
              "the positions start at 1; they start at p = 0, whose row is 0, 1, 0, 1, ...",
              CODE),
    Diagnosis(_PE, pe_halves,
              "all the sines come first and all the cosines after them; the sine and "
              "cosine of pair i sit side by side, in columns 2i and 2i+1", CODE),
    Diagnosis(_PE, pe_float32,
              "the table is float32; work in float64 throughout, since single precision "
              "has lost the third decimal at positions in the tens of thousands",
              "Question 1"),
    Diagnosis(_PE, pe_tensor,
              "a torch tensor is returned; the function returns a NumPy array (float64)",
              "Question 1"),
    Diagnosis(_PE, pe_rejects_zero,
              "n_pos = 0 is rejected; it is valid and gives an empty (0, d) array",
              "Question 1"),
    Diagnosis(_PE, pe_float32_torch,
              "the table is computed in torch's default float32 and converted to float64 "
              "at the end; the conversion cannot bring back the digits float32 lost, so "
              "compute in float64 throughout", "Question 1", rtol=0.0, atol=1e-9),
    accepted_unchecked(_PE, reference.sinusoidal_pe, "Question 1", "pe_d_unchecked",
                       "d is not checked: raise ValueError yourself unless d is a positive "
                       "even int; NumPy raises for an odd d only by accident, and not at "
                       "all for d = 0", which=_ints),
    refused_with_assert(_PE, reference.sinusoidal_pe, "Question 1", "pe_asserted"),
    accepted_unchecked(_PE, reference.sinusoidal_pe, "Question 1", "pe_types_unchecked",
                       "n_pos and d are not checked to be ints; a float, a string or None "
                       "must raise ValueError (test isinstance first), not the TypeError "
                       "that comes later", which=lambda args, kwargs: not _ints(args, kwargs)),
    Diagnosis(_ENC, enc_one_ffn_bias,
              "the feed-forward network is counted with one bias; both of its linear maps "
              "have one (d_ff for the first, d for the second)", PART3),
    Diagnosis(_ENC, enc_no_biases,
              "the biases are left out; the layer keeps PyTorch's default biases, in the "
              "attention projections and in both feed-forward maps", PART3),
    Diagnosis(_ENC, enc_no_norms,
              "the two LayerNorms are left out; each holds a scale and a shift of d "
              "values, 4d in all", PART3),
    Diagnosis(_ENC, enc_no_output_projection,
              "the attention's output projection W_O is missing; attention holds four "
              "d x d matrices, W_Q, W_K, W_V and W_O, each with a bias", PART3),
    Diagnosis(_ENC, enc_norm_scale_only,
              "each LayerNorm is counted with its scale only; it has a shift of d values "
              "too", PART3),
    Diagnosis(_ENC, enc_default_2048,
              "d_ff=None is taken as PyTorch's default 2048; here it means 4d, whatever d "
              "is", "Question 3"),
    Diagnosis(_ENC, enc_float,
              "the count comes out as a float; keep every step an int (4 * d, not 4.0 * d)",
              "Question 3"),
    Diagnosis(_ENC, enc_8d2,
              "this is the source notes' 8 d^2, which is the feed-forward network alone; "
              "count every component, biases and LayerNorms included",
              f"{PART3}, \"A correction\""),
    Diagnosis(_ENC, enc_12d2,
              "12 d^2 is the approximation; the exact count adds the biases and the "
              "LayerNorms, 13 d more", PART3),
    Diagnosis(_DEC, dec_cross_kv_only,
              "the cross-attention is counted with two projections; like self-attention "
              "it holds four d x d matrices and their biases", PART4),
    Diagnosis(_DEC, dec_cross_no_bias,
              "the cross-attention is counted without its biases; it has the same 4d of "
              "biases as self-attention", PART4),
    Diagnosis(_DEC, dec_default_2048,
              "d_ff=None is taken as PyTorch's default 2048; here it means 4d, whatever d "
              "is", "Question 4"),
    Diagnosis(_DEC, dec_no_cross,
              "the cross-attention is missing; a decoder layer has a second attention "
              "over the encoder's output", PART4),
    Diagnosis(_DEC, dec_16d2,
              "16 d^2 is the approximation; the exact count adds the biases and the "
              "LayerNorms", PART4),
    Diagnosis(_DEC, dec_two_norms,
              "the decoder layer is counted with two LayerNorms; it has three, one after "
              "each of its three sub-layers", PART4),
    Diagnosis(_COUNT, count_always_trainable,
              "only parameters with requires_grad are counted, even by default; frozen "
              "parameters are still parameters of the model, and only trainable_only=True "
              "leaves them out", f"{PART2}, \"Frozen parameters are still parameters\""),
    Diagnosis(_COUNT, count_ignores_trainable_only,
              "trainable_only is ignored; with trainable_only=True, count only the "
              "parameters whose requires_grad is True", "Question 2"),
    Diagnosis(_COUNT, count_tied_twice,
              "a Parameter shared by two modules (a tied embedding and output layer) is "
              "counted twice; walking the modules one by one, listing parameters with "
              "remove_duplicate=False or summing the state dict meet it once per module, "
              "while model.parameters() yields each Parameter object once",
              f"{PART2}, \"Shared (tied) weights\""),
    Diagnosis(_COUNT, count_with_buffers,
              "buffers are counted (BatchNorm's running statistics, tables stored with "
              "register_buffer); they are saved in the state dict but never trained, and "
              "model.parameters() leaves them out", f"{PART2}, \"Buffers are not parameters\""),
    Diagnosis(_COUNT, count_tensor,
              "a torch tensor is returned; the function returns a Python int (sum the "
              "p.numel() values, which are ints)", "Question 2"),
    Diagnosis(_COUNT, count_tensors,
              "the parameter tensors are counted instead of the numbers they hold; a "
              "model's size is the sum of p.numel() over its parameters", PART2),
    Diagnosis(_COUNT, count_weights_only,
              "only the tensors named weight are counted; biases and every other "
              "Parameter (in_proj_bias, a LayerNorm's shift, a bare nn.Parameter) count too",
              PART2),
]
# A table of sines costs a few ms per 100,000 entries to replay: the tests of larger
# tables (test_large_positions) are not diagnosed. The mistakes above show on small
# ones; a table built once up to a largest n_pos and sliced shows only there.
DIAGNOSES = [replace(d, max_elements=1 << 16) if d.question == _PE else d for d in DIAGNOSES]
