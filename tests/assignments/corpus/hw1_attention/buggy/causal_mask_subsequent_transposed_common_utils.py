# question: causal_mask
# fails: test_rejects_invalid_n
# public: should raise ValueError
# makes: mask_unchecked
# source: AndrewSukhobok95/discrete_latents_for_text_to_image_gen, modules/common_utils.py (subsequent_mask)
import torch


def causal_mask(n):
    mask = (torch.triu(torch.ones(n, n)) == 1).transpose(0, 1).float()
    mask = mask.masked_fill(mask == 0, float('-inf')).masked_fill(mask == 1, float(0.0))
    return mask
