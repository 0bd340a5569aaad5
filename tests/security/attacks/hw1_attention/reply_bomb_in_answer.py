# expect: partial causal_mask
# with: reference
# causal_mask answers with a reply bomb (a 1 MB header nested 500,000 deep, then a
# 64 MB header): only causal_mask may lose its points.
import os, socket
def causal_mask(n):
    fd = next(int(f) for f in os.listdir("/proc/self/fd")
              if os.readlink(f"/proc/self/fd/{f}").startswith("socket:"))
    sock = socket.socket(fileno=os.dup(fd))
    deep = b'{"ok": ' + b"[" * 500_000 + b"]" * 500_000 + b"}"
    sock.sendall(len(deep).to_bytes(4, "big") + deep)
    body = b'{"ok": [' + b"[]," * (64 * 2**20 // 3) + b"[]]}"
    sock.sendall(len(body).to_bytes(4, "big") + body)
