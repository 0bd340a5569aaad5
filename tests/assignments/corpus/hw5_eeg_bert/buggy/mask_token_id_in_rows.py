# question: mask_patches
# fails: test_replaces_masked_rows, test_positions_as_array_or_tuple, test_input_not_modified
# public: should return a numpy array, not list
# diagnosis: mask_token_id
# Text BERT carried over: the masked rows become the [MASK] token id (103), not the mask
# vector, in a list of rows: neither an array nor z's shape.
def mask_patches(z, positions, mask_vector):
    out = [row.copy() for row in z]
    for p in positions:
        out[int(p)] = 103
    return out
