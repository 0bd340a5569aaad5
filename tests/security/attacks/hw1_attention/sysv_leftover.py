# expect: full
# with: reference
# Creates SysV shared memory (64 MB, touched), a semaphore set, a message
# queue and a POSIX message queue, and leaves them: none may outlive the
# submission.
import ctypes, ctypes.util
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
IPC_PRIVATE, IPC_CREAT = 0, 0o1000
made = []
shm = libc.shmget(IPC_PRIVATE, 64 << 20, IPC_CREAT | 0o666)
if shm >= 0:
    address = libc.shmat(shm, None, 0)
    if address not in (None, ctypes.c_void_p(-1).value):
        ctypes.memset(address, 1, 64 << 20)
    made.append(("shm", shm))
for name, call in (("sem", lambda: libc.semget(IPC_PRIVATE, 4, IPC_CREAT | 0o666)),
                   ("msg", lambda: libc.msgget(IPC_PRIVATE, IPC_CREAT | 0o666))):
    ident = call()
    if ident >= 0:
        made.append((name, ident))
try:
    rt = ctypes.CDLL(ctypes.util.find_library("rt") or "librt.so.1", use_errno=True)
    if rt.mq_open(b"/autograder-leftover-mq", 0o100 | 0o2, 0o666, None) >= 0:
        made.append(("mq", 0))
except OSError:
    pass
print("made", made)
