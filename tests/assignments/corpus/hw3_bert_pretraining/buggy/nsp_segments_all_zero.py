# question: nsp_pair
# fails: test_segment_ids
# public: 1 after it
# diagnosis: nsp_one_segment
# One segment for the whole pair.
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    ids = [cls_id, *tokens_a, sep_id, *tokens_b, sep_id]
    return ids, [0] * len(ids)
