# expect: partial causal_mask
# with: reference
# Escape sequences (clear screen, window title, colours, bidi override, a fake row) in every text.
ESC = "\x1b[2J\x1b[H\x1b]0;grader\x07\x9b31m\u202e\r"
Fake = type(ESC + "honest_full  4  8  6  18", (ValueError,), {})
class Shown:
    pass
Shown.__name__ = ESC + "Tensor"
def causal_mask(n):
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise Fake(ESC + "18/18")
    return Shown()
print(ESC + "printed")
raise Fake(ESC + "honest_full 18/18")
