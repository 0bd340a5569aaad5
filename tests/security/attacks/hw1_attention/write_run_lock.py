# expect: full
# with: reference
# Writes where a list of temporary folders does not look: /run/lock (also
# reached as /var/lock), open to every user on Debian. Its files there must be
# swept with the rest and count towards DISK_MB MB. Files of 63 MB, each under
# the per-file limit, eight of them: if more than twice DISK_MB MB was ever
# written, the attack won: it deletes its answer to causal_mask, so its
# expected outcome fails.
import os
chunk, written = b"x" * 2**20, 0
for n in range(8):
    folder = "/run/lock" if n < 4 else "/var/lock"
    try:
        with open(os.path.join(folder, f"autograder-leftover-{os.getpid()}-{n}"), "wb") as f:
            for _ in range(63):
                f.write(chunk)
                written += len(chunk)
    except OSError:
        continue
if written > 2 * DISK_MB * 2**20:
    del causal_mask
