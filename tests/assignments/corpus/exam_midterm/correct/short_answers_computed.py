# Part A computed rather than derived: the count by torch, the shape as a torch.Size,
# numpy numbers for the rest.
import numpy as np
import torch
from torch import nn

e = P["encoder_params"]
ENCODER_LAYER_PARAMS = sum(p.numel() for p in nn.TransformerEncoderLayer(
    e["d_model"], e["heads"], e["d_ff"]).parameters())
c = P["cross_attention_shape"]
CROSS_ATTENTION_SHAPE = torch.Size([c["batch"], c["heads"], c["n_tgt"], c["n_src"]])
m = P["mask_fraction"]
MASK_FRACTION = np.float64(m["select_prob"]) * m["mask_prob"] * (1 - m["n_special"] / m["seq_len"])
v = P["chance_level"]
CHANCE_LOSS = np.log(np.float32(v["vocab_size"] - v["n_special"]).astype(np.float64))
CHANCE_PERPLEXITY = np.exp(CHANCE_LOSS)
STUDENT_ID = "  " + STUDENT_ID.upper() + " "
