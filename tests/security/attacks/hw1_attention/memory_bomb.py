# expect: full
# with: reference
try:
    hog = bytearray(64 * 2**30)
except MemoryError:
    hog = None
blocks = []
try:
    while True:
        blocks.append(bytearray(2**28))
except MemoryError:
    blocks = None
