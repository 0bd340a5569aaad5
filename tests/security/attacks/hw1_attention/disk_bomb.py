# expect: full
# with: reference
import os
chunk = b"x" * 2**20
for folder in (".", "/tmp", "/var/tmp", "/dev/shm", os.path.expanduser("~")):
    for i in range(10_000):
        try:
            with open(os.path.join(folder, f"fill{i}"), "wb") as f:
                for _ in range(4096):
                    f.write(chunk)
        except OSError:
            break
