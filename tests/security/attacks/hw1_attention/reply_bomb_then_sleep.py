# expect: full
# with: reference
# A 64 MB reply bomb, then the worker sleeps: the grader must stop it all the same.
import os, socket, time
fd = next(int(f) for f in os.listdir("/proc/self/fd")
          if os.readlink(f"/proc/self/fd/{f}").startswith("socket:"))
body = b'{"ok": [' + b"[]," * (64 * 2**20 // 3) + b"[]]}"
socket.socket(fileno=os.dup(fd)).sendall(len(body).to_bytes(4, "big") + body)
time.sleep(10**6)
