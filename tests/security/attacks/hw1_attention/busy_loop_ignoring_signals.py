# expect: full
# with: reference
import signal
for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGALRM):
    signal.signal(sig, signal.SIG_IGN)
while True:
    pass
