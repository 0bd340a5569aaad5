# question: layer_norm
# fails: test_eps_inside_square_root
# public: -
# makes: ln_eps_outside
# batch G4 (labelled before grading)
# (x - mean) / (std + eps)
# split: measure
# source: dna2github/dna2sevord, study/ai/transformer.md (its norm(.) = (x - mean) / (std + epsilon)
# source: written as NumPy over the last axis, epsilon the stub's eps)
import numpy as np


def layer_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    mean = np.mean(x, axis=-1, keepdims=True)
    std = np.std(x, axis=-1, keepdims=True)
    return (x - mean) / (std + eps)
