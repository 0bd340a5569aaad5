# expect: full
# with: reference
# Every worker is a copy of the template's memory: looks through the frames it
# was forked in and the objects it inherited for lists of paths outside Python's
# own folders and the package (the grader's list of hidden paths: the submissions
# and the output folder among them), and raises them into the feedback.
import gc, sys
known = {sys.prefix, sys.base_prefix, sys.exec_prefix}
known |= {m.__file__.split("/autograder/")[0] for m in list(sys.modules.values())
          if "/autograder/" in (getattr(m, "__file__", None) or "")}
def paths(value):
    if hasattr(type(value), "__dataclass_fields__"):  # the template's orders
        value = vars(value)
    if isinstance(value, dict):
        return [p for v in value.values() for p in paths(v)]
    if isinstance(value, (list, tuple)):
        return [p for v in value for p in paths(v)]
    return [value] if isinstance(value, str) and value.startswith("/") else []
seen = []
frame = sys._getframe()
while frame is not None:
    seen += paths(dict(frame.f_locals))
    frame = frame.f_back
seen += [p for obj in gc.get_objects() if isinstance(obj, dict) and ("hide" in obj or "secret" in obj)
         for p in paths(obj)]
leaked = sorted({p for p in seen if not any(p.startswith(k) for k in known)
                 and not p.startswith(("/sys/", "/proc/", "/dev/", "/usr/", "/lib"))})
if leaked:
    raise RuntimeError(" ".join(leaked)[:2000])
