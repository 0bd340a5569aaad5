# question: nsp_pair
# fails: test_segment_ids
# The first [SEP] gets segment 1.
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    ids = [cls_id] + tokens_a + [sep_id] + tokens_b + [sep_id]
    return ids, [0] * (len(tokens_a) + 1) + [1] * (len(tokens_b) + 2)
