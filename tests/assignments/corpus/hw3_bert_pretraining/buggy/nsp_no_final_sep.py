# question: nsp_pair
# fails: test_input_ids_layout
# public: [CLS] a [SEP] b [SEP]
# public: [CLS] + 3 + [SEP] + 2 + [SEP]
# diagnosis: nsp_no_final_sep
# The closing [SEP] is missing.
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    ids = [cls_id] + tokens_a + [sep_id] + tokens_b
    return ids, [0] * (len(tokens_a) + 2) + [1] * len(tokens_b)
