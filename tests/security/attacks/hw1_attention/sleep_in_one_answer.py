# expect: partial causal_mask
# with: reference
import time
def causal_mask(n):
    time.sleep(10**6)
