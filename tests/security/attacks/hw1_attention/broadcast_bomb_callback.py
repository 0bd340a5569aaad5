# expect: full
# with: reference
# Calls the attention the grader lends TinySelfAttn with 768 KB of arguments that
# broadcast to 2^32 scores (q (1, 1, 2^16, 1) against k (2^16, 1, 1, 1)): 16 GB in the
# grader if it computed them. Refused from the shapes, it then behaves.
import torch
_Attention = TinySelfAttn


class TinySelfAttn(_Attention):
    def forward(self, x, mask=None):
        lent = globals()["scaled_dot_product_attention"]
        n = 1 << 16
        try:
            lent(torch.ones(1, 1, n, 1), torch.ones(n, 1, 1, 1), torch.ones(n, 1, 1, 1))
        except Exception:  # refused
            pass
        return super().forward(x, mask)
