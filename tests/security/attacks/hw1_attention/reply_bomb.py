# expect: full
# with: reference
# A reply bomb: a 128 MB frame header of "[]," written straight into the worker's socket.
import os, socket
fd = next(int(f) for f in os.listdir("/proc/self/fd")
          if os.readlink(f"/proc/self/fd/{f}").startswith("socket:"))
body = b'{"ok": [' + b"[]," * (128 * 2**20 // 3) + b"[]]}"
socket.socket(fileno=os.dup(fd)).sendall(len(body).to_bytes(4, "big") + body)
