# expect: full
# with: reference
# stat() needs no right to read (and Landlock does not govern it): looks up the
# hidden tests, the reference and the grading config by name, where the package's
# own modules say they live. If any answers (its existence, size and dates), the
# attack won: it deletes its answer to causal_mask, so its expected outcome fails.
import os, sys
roots = {m.__file__.split("/autograder/")[0] for m in list(sys.modules.values())
         if "/autograder/" in (getattr(m, "__file__", None) or "")}
seen = []
for root in roots:
    for name in ("autograder/hw1_attention/reference.py", "grading_config/hw1_attention.toml",
                 "autograder/hw1_attention/test_causal_mask.py"):
        try:
            seen.append((name, os.stat(os.path.join(root, name)).st_size))
        except OSError:
            pass
if seen:
    del causal_mask
