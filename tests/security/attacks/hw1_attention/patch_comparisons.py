# expect: zero
# Blank answers, with every comparison the grader might use patched to say "equal".
import builtins, numpy as np, torch
def causal_mask(n): return None
def scaled_dot_product_attention(q, k, v, mask=None): return None
class TinySelfAttn(torch.nn.Module):
    def __init__(self, h, heads): super().__init__()
torch.allclose = torch.equal = lambda *a, **k: True
np.allclose = np.array_equal = lambda *a, **k: True
np.isclose = lambda a, b, **k: np.ones(np.shape(a), bool)
np.testing.assert_allclose = lambda *a, **k: None
torch.testing.assert_close = lambda *a, **k: None
builtins.isinstance = lambda obj, cls: True
try:
    import pytest
    pytest.approx = lambda *a, **k: type("Any", (), {"__eq__": lambda s, o: True})()
except ImportError:
    pass
import sys
for name, mod in list(sys.modules.items()):
    if name.startswith("autograder"):
        for attr in dir(mod):
            if attr.startswith(("expect", "fail")):
                setattr(mod, attr, lambda *a, **k: None)
