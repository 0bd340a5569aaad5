# expect: any
# with: reference
import os, time
children = 0
try:
    while True:
        if os.fork() == 0:
            time.sleep(1000)
            os._exit(0)
        children += 1
except OSError:
    pass
print("forked", children)
