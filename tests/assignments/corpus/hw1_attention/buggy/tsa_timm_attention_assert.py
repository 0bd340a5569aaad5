# question: TinySelfAttn
# fails: test_rejects_indivisible_heads
# public: dim should be divisible by num_heads
# makes: tsa_asserted
# correct but for the assert (AssertionError, not ValueError): tsa_unchecked, the
# nearest declared mistake, until tsa_asserted was declared (written from this one)
# source: huggingface/pytorch-image-models, timm/layers/attention.py (Attention at 02bb6b3 with its
# source: defaults (qkv_bias=False, proj_bias=True, no norms, no dropout) and use_fused_attn()'s fused
# source: path: dim and num_heads are h and heads, proj is the stub's out, attn_mask its mask)
from typing import Optional

import torch
from torch import nn as nn
from torch.nn import functional as F


class TinySelfAttn(nn.Module):
    def __init__(
            self,
            h: int,
            heads: int = 8,
            attn_head_dim: Optional[int] = None,
            dim_out: Optional[int] = None,
            qkv_bias: bool = False,
            proj_bias: bool = True,
            attn_drop: float = 0.,
            proj_drop: float = 0.,
    ) -> None:
        super().__init__()
        dim, num_heads = h, heads
        dim_out = dim_out or dim
        head_dim = attn_head_dim
        if head_dim is None:
            assert dim % num_heads == 0, 'dim should be divisible by num_heads'
            head_dim = dim // num_heads

        self.num_heads = num_heads
        self.head_dim = head_dim
        self.attn_dim = num_heads * head_dim
        self.scale = head_dim ** -0.5
        self.fused_attn = True

        self.qkv = nn.Linear(dim, self.attn_dim * 3, bias=qkv_bias)
        self.q_norm = nn.Identity()
        self.k_norm = nn.Identity()
        self.attn_drop = nn.Dropout(attn_drop)
        self.norm = nn.Identity()
        self.out = nn.Linear(self.attn_dim, dim_out, bias=proj_bias)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(
            self,
            x: torch.Tensor,
            mask: Optional[torch.Tensor] = None,
            is_causal: bool = False,
    ) -> torch.Tensor:
        attn_mask = mask
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        q, k = self.q_norm(q), self.k_norm(k)

        x = F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=attn_mask,
            dropout_p=self.attn_drop.p if self.training else 0.,
            is_causal=is_causal,
        )

        x = x.transpose(1, 2).reshape(B, N, self.attn_dim)
        x = self.norm(x)
        x = self.out(x)
        x = self.proj_drop(x)
        return x
