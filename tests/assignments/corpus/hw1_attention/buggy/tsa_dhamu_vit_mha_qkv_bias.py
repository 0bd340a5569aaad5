# question: TinySelfAttn
# fails: test_parameters, test_matches_reference_without_mask, test_matches_reference_with_causal_mask, test_bidirectional_influence, test_rejects_indivisible_heads
# public: 'qkv.bias'
# public: should raise ValueError
# makes: tsa_qkv_bias, tsa_unchecked
# batch F (labelled before grading)
# no divisibility check at all; also the mask is never read (no diagnosis)
# split: measure
# source: Dhamu785/Vision-Transformers, 01_ViT/MHA.py (mha with its own example's qkv_bias=True and
# source: no dropout (att_drop = proj_drop = 0): dim and num_heads are h and heads, proj is the stub's
# source: out; forward takes the stub's mask, which it never reads)
import torch as t
import torch.nn as nn


class TinySelfAttn(nn.Module):
    def __init__(self, h: int, heads: int,
                    qkv_bias: bool = True, att_drop: float = 0.0,
                    proj_drop: float = 0.0) -> None:
        super().__init__()
        dim, num_heads = h, heads
        self.dim = dim
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5

        self.qkv = nn.Linear(dim, 3*dim, bias=qkv_bias)
        self.att_d = nn.Dropout(att_drop)
        self.out = nn.Linear(dim, dim)
        self.proj_d = nn.Dropout(proj_drop)

    def forward(self, x: t.Tensor, mask=None) -> t.Tensor:
        n_sample, patches, dim = x.shape
        if dim != self.dim:
            raise ValueError

        qkv: t.Tensor = self.qkv(x) # n_samples, patches, 3*dim
        qkv: t.Tensor = qkv.reshape(n_sample, patches, 3, self.num_heads, self.head_dim)
        qkv: t.Tensor = qkv.permute(2, 0, 3, 1, 4) # qkv, n_samples, num_heads, patches, head_dim
        q, k, v = qkv[0], qkv[1], qkv[2]
        weights: t.Tensor = (q @ k.transpose(-2,-1))  * self.scale # n_samples, num_heads, num_patches, num_patches
        droped_weights: t.Tensor = self.att_d(weights.softmax(dim=-1))
        weighted_value: t.Tensor = droped_weights @ v # n_samples, num_heads, num_patches, head_dim
        v_t: t.Tensor = weighted_value.transpose(1,2) # n_samples, num_patches, num_heads, head_dim
        v_flatten: t.Tensor = v_t.flatten(2) # n_samples, num_patches, dimension
        final_proj: t.Tensor = self.proj_d(self.out(v_flatten))

        return final_proj
