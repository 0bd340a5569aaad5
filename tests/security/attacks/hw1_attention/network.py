# expect: zero
# If any connection works (loopback included), answers correctly; it must not.
import socket
reachable = False
for host, port in (("127.0.0.1", PORT), ("localhost", PORT), ("127.0.0.1", 22), ("10.0.0.1", 80)):
    try:
        socket.create_connection((host, port), timeout=1).close()
        reachable = True
    except OSError:
        pass
if reachable:
    import torch
    def causal_mask(n):
        return torch.triu(torch.full((n, n), float("-inf")), 1)
