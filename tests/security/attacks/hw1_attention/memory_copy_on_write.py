# expect: zero
# Copy-on-write: the notebook and three children each write to every page they
# inherited from the template (torch and numpy, about 150 MB each), which no
# address-space limit counts. Beyond the memory of the machine or container, the
# kernel must stop these processes, never the grader: every submission still gets
# its result, and this one nothing.
import ctypes, os, time
PAGE = os.sysconf("SC_PAGE_SIZE")


def dirty_inherited():
    """Rewrite one byte of every page of every writable private mapping with its
    own value: the process keeps working, and each page becomes its own copy."""
    for line in open("/proc/self/maps").read().splitlines():
        fields = line.split()
        if not fields[1].startswith("rw") or fields[-1] in ("[stack]", "[vvar]", "[vsyscall]"):
            continue
        start, end = (int(x, 16) for x in fields[0].split("-"))
        for address in range(start, end, PAGE):
            byte = ctypes.c_char.from_address(address)
            byte.value = byte.value


children = []
for _ in range(3):
    try:
        pid = os.fork()
    except OSError:
        break  # the process limit
    if pid == 0:
        try:
            dirty_inherited()
            time.sleep(20)
        finally:
            os._exit(0)
    children.append(pid)
dirty_inherited()
time.sleep(2)
print("children alive:", sum(os.waitpid(p, os.WNOHANG) == (0, 0) for p in children))
