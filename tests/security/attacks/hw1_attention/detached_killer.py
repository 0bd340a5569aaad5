# expect: any
# A detached process that keeps killing every process it can and rewriting
# grades.csv (whose path it is given) for 30 s, well after grading ends.
import os, signal, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
            signal.signal(sig, signal.SIG_IGN)
        end = time.monotonic() + 30
        while time.monotonic() < end:
            for pid in os.listdir("/proc"):
                if pid.isdigit() and int(pid) != os.getpid():
                    try:
                        os.kill(int(pid), signal.SIGKILL)
                    except OSError:
                        pass
            try:
                with open("OUT_GRADES", "w") as f:
                    f.write("submission,total\nhonest_full,0\n")
            except OSError:
                pass
            time.sleep(0.2)
    os._exit(0)
