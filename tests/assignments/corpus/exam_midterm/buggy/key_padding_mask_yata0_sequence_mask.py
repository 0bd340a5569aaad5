# question: key_padding_mask
# fails: test_type_shape_dtype, test_values, test_accepts_integer_array, test_rejects_invalid_lengths
# makes: -
# batch E
# True at real tokens: not mask_boolean's "True at padding"; no ValueError
# source: yata0/sequence-regression, conv_sequence_regression/utils/sequence_mask.py (sequence_mask: n_src
# source: is its max_len)
import numpy as np
def sequence_mask(lengths,max_len=None,type_=np.bool):
    lengths = np.asarray(lengths)
    if max_len is None:
        max_len = np.max(lengths)
    row_vector = np.arange(0,max_len)
    result = np.expand_dims(lengths,axis=-1)
    result_matrix = row_vector < result
    result_matrix = result_matrix.astype(type_)
    return result_matrix


def key_padding_mask(lengths, n_src):
    return sequence_mask(lengths, max_len=n_src)
