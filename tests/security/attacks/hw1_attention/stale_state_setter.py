# expect: any
# with: reference
# Changes process-wide state; the next submission's fresh worker must not see it.
import numpy as np, torch
torch.nn.functional.gelu = lambda *a, **k: 0
np.random.seed(12345)
torch.manual_seed(12345)
torch.set_num_threads(2)
torch.set_default_dtype(torch.float64)
