# expect: zero
# Eight children of 200 MB each (every page touched), all held at once: more
# than the submission's memory budget (MEMORY_MB MB). If more than the budget
# is ever held at once, answers correctly.
import os, time
MB = 200
children = {}
for _ in range(8):
    r, w = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        break  # the process limit
    if pid == 0:
        os.close(r)
        try:
            hog = b"x" * (MB << 20)
            os.write(w, b"1")
            time.sleep(30)
        finally:
            os._exit(0)
    os.close(w)
    children[pid] = r
# each read returns once its child holds its 200 MB, or (empty) once it died
holding = {pid for pid, r in children.items() if os.read(r, 1) == b"1"}
alive = {pid for pid in children if os.waitpid(pid, os.WNOHANG) == (0, 0)}
held = len(holding & alive)
for pid in children:
    try:
        os.kill(pid, 9)
    except OSError:
        pass
print("held at once:", held, "x", MB, "MB")
if held * MB > MEMORY_MB:
    import torch
    def causal_mask(n):
        return torch.triu(torch.full((n, n), float("-inf")), 1)
