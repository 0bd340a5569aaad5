# question: layer_norm
# fails: test_eps_inside_square_root
# public: -
# makes: ln_eps_outside
# batch F (labelled before grading)
# source: DylanTombs/TradingTransformer, Transformer/LayerNorm.py (LayerNorm.forward with gamma 1 and
# source: beta 0; its eps is the stub's, 1e-5, where the class defaults to 1e-6)
import numpy as np


def layer_norm(x, eps=1e-5):
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps)
