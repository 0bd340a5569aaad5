# expect: full
# with: reference
# An exception class with a 4 MB name, raised by the notebook's own cell (a note).
raise type("E" * 4_000_000, (Exception,), {})("at the top of the cell")
