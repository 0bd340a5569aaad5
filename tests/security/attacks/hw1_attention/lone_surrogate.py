# expect: partial causal_mask
# with: reference
# A lone surrogate (valid in JSON, not in UTF-8) in every text the grader reports.
def causal_mask(n):
    if not isinstance(n, int) or isinstance(n, bool) or n < 1:
        raise ValueError("bad n \ud800")
    raise RuntimeError("no mask \udcff today")
print("printed \ud800 too")
raise ValueError("cell \ud800 error")
