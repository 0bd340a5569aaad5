# question: nsp_pair
# fails: test_segment_ids
# public: 0 up to and including the first [SEP]
# diagnosis: nsp_first_sep_in_b
# The first [SEP] gets segment 1.
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    """Mistake: the first [SEP] is put in segment B."""
    ids = [cls_id] + list(tokens_a) + [sep_id] + list(tokens_b) + [sep_id]
    return ids, [0] * (len(tokens_a) + 1) + [1] * (len(tokens_b) + 2)
