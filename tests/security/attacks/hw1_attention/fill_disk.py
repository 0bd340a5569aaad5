# expect: full
# with: reference
# Files of 63 MB, each under the per-file limit (RLIMIT_FSIZE, DISK_MB MB), eight
# of them, in its own folder and then the shared temporary ones: without a bound
# on all of a submission's files together, they fill the disk the grader writes
# its results to. If more than twice DISK_MB MB was ever written, the attack won:
# it deletes its answer to causal_mask, so its expected outcome fails.
import itertools, os
chunk, written, names = b"x" * 2**20, 0, itertools.count()
for folder in (".", "/tmp", "/var/tmp", "/dev/shm"):
    while written < 8 * 63 * 2**20:
        try:
            with open(os.path.join(folder, f"autograder-fill-{os.getpid()}-{next(names)}"), "wb") as f:
                for _ in range(63):
                    f.write(chunk)
                    written += len(chunk)
        except OSError:
            break
if written > 2 * DISK_MB * 2**20:
    del causal_mask
