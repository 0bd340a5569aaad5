# question: sinusoidal_pe
# fails: test_type_shape_dtype, test_values, test_large_positions, test_no_positions, test_rejects_bad_d, test_rejects_negative_n_pos, test_rejects_non_integers
# public: float32, not float64
# public: d must be even
# makes: pe_float32, pe_rejects_zero, pe_d_unchecked, pe_types_unchecked
# batch F (labelled before grading)
# n_pos = 0 gives an empty tensor that [:, 0::2] cannot index (IndexError)
# source: wzzheng/DVGT, dvgt/layers/sinusoid_pose_encoding.py (get_sinusoid_encoding_table(n_position, d_hid);
# source: its leading batch axis dropped and the tensor made a NumPy array)
import torch

def get_sinusoid_encoding_table(n_position, d_hid):
    """ Sinusoid position encoding table """

    def get_position_angle_vec(position):
        return [position / pow(10000, 2 * (hid_j // 2) / d_hid) for hid_j in range(d_hid)]

    sinusoid_table = torch.tensor([get_position_angle_vec(pos_i) for pos_i in range(n_position)])
    sinusoid_table[:, 0::2] = torch.sin(sinusoid_table[:, 0::2])  # dim 2i
    sinusoid_table[:, 1::2] = torch.cos(sinusoid_table[:, 1::2])  # dim 2i+1

    return sinusoid_table.unsqueeze(0)


def sinusoidal_pe(n_pos, d):
    return get_sinusoid_encoding_table(n_pos, d)[0].numpy()
