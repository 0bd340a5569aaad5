# question: nsp_pair
# fails: test_input_ids_layout
# public: [CLS] a [SEP] b [SEP]
# diagnosis: nsp_swapped
# B placed before A.
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    ids = [cls_id, *tokens_b, sep_id, *tokens_a, sep_id]
    return ids, [0] * (len(tokens_b) + 2) + [1] * (len(tokens_a) + 1)
