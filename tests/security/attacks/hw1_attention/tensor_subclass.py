# expect: zero
# A tensor subclass that claims the right shape and equality with anything.
import torch
class Forged(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func.__name__ in ("__eq__", "allclose", "equal", "isclose"):
            return True
        return super().__torch_function__(func, types, args, kwargs or {})
    @property
    def shape(self):
        return torch.Size([99, 99])
def causal_mask(n):
    return torch.zeros(1).as_subclass(Forged)
def scaled_dot_product_attention(q, k, v, mask=None):
    f = torch.zeros(1).as_subclass(Forged)
    return f, f
