# question: nsp_pair
# fails: test_inputs_not_modified
# public: -
# Builds the sequence by editing tokens_a and tokens_b in place.
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    tokens_a.insert(0, cls_id)
    tokens_a.append(sep_id)
    tokens_b.append(sep_id)
    return tokens_a + tokens_b, [0] * len(tokens_a) + [1] * len(tokens_b)
