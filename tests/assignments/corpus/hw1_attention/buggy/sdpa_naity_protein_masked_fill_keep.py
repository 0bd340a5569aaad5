# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_seed_table_causal
# public: must get weight 0
# makes: sdpa_mask_read_as_keep
# batch G3 (labelled before grading)
# the additive mask read as a keep-mask, -1e9 where it is 0 (in place, on the scores)
# split: measure
# source: naity/protein-transformer, protein_transformer/utils.py (scale_dot_product_attention)
import numpy as np
import torch


def scaled_dot_product_attention(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor = None
) -> tuple[torch.Tensor, torch.Tensor]:
    dk = q.shape[-1]
    attn_logits = q @ k.transpose(-2, -1) / np.sqrt(dk)  # (*, seq_length, seq_length)

    if mask is not None:
        # Mask out with a very large negative value
        attn_logits.masked_fill_(mask == 0, -1e9)

    attention = torch.softmax(attn_logits, dim=-1)  # (*, seq_length, seq_length)
    values = attention @ v  # (*, seq_length, dv)

    return values, attention
