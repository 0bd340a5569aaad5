# question: encoder_layer_param_count
# fails: test_explicit_width_matches_torch
# public: count every weight and bias
# makes: -
# batch G3 (labelled before grading)
# 12 d^2 + 13 d whatever d_ff: right for d_ff = None only (no diagnosis for an ignored d_ff)
# split: measure
# source: wangywUST/wangywust.github.io, Course/lecture_4.md (section 2.1's per-layer count
# source: (4h^2 + 4h) + (8h^2 + 5h) + 4h with h = d; the stub's d_ff is taken and never read, the
# source: lecture's MLP being 4h wide)
def encoder_layer_param_count(d, d_ff=None):
    h = d
    self_attention = 3 * (h * h) + (h * h) + 4 * h   # W_Q, W_K, W_V, W_O and their 4 biases
    mlp = h * (4 * h) + (4 * h) + (4 * h) * h + h      # W_1, b_1, W_2, b_2
    layer_norm = 2 * (h + h)                           # two layer norms, gamma and beta
    return self_attention + mlp + layer_norm
