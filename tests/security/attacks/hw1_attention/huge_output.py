# expect: full
# with: reference
import sys
print("x" * 50_000_000)
for i in range(200_000):
    sys.stderr.write("spam line %d\n" % i)
