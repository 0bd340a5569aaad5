# expect: zero
# Any socket at all: UDP to the grading machine's loopback, TCP over IPv6
# loopback, raw and netlink sockets. If one works, answers correctly.
import socket
reachable = []
for family, kind, address in ((socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", PORT)),
                              (socket.AF_INET6, socket.SOCK_STREAM, ("::1", PORT)),
                              (socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.2", PORT))):
    try:
        s = socket.socket(family, kind)
        s.settimeout(1)
        if kind == socket.SOCK_DGRAM:
            s.sendto(b"hello", address)
        else:
            s.connect(address)
        reachable.append(address)
    except OSError:
        pass
for family, kind in ((socket.AF_NETLINK, socket.SOCK_RAW), (socket.AF_PACKET, socket.SOCK_RAW)):
    try:
        socket.socket(family, kind).close()
        reachable.append(family)
    except OSError:
        pass
if reachable:
    import torch
    def causal_mask(n):
        return torch.triu(torch.full((n, n), float("-inf")), 1)
print(reachable)
