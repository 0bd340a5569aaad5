# expect: zero
# Rewrites every results.json / grades.csv it can find, now and from a
# detached process that outlives the notebook.
import json, os, time
FORGED = json.dumps({"score": 1000, "tests": []})
def forge():
    for top in ("/", "/tmp", "/work", "/autograder"):
        for dirpath, dirs, files in os.walk(top):
            if dirpath.startswith(("/proc", "/sys", "/dev", "/usr")):
                dirs[:] = []
                continue
            for f in files:
                if f in ("results.json", "grades.csv"):
                    try:
                        open(os.path.join(dirpath, f), "w").write(FORGED)
                    except OSError:
                        pass
forge()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        for _ in range(60):
            time.sleep(0.5)
            forge()
    os._exit(0)
