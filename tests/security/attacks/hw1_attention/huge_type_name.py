# expect: partial causal_mask
# with: reference
# An exception class with a 4 MB name, raised by every call of an answer.
Huge = type("E" * 4_000_000, (ValueError,), {})
def causal_mask(n):
    raise Huge("x" * 1000)
