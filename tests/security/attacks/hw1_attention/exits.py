# expect: full
# with: reference
import os, sys
try:
    sys.exit(3)
finally:
    os._exit(0)
