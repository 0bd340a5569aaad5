# expect: zero
# Objects whose __eq__, __bool__, __array__ and __torch_function__ all lie.
import numpy as np, torch
class Liar:
    def __eq__(self, other): return True
    def __ne__(self, other): return False
    def __bool__(self): return True
    def __len__(self): return 2
    def __iter__(self): return iter([self, self])
    def __getitem__(self, i): return self
    def __array__(self, *a, **k): return np.zeros((4, 4), np.float32)
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None): return True
    shape = property(lambda self: torch.Size([4, 4]))
    dtype = torch.float32
def causal_mask(n): return Liar()
def scaled_dot_product_attention(q, k, v, mask=None): return (Liar(), Liar())
