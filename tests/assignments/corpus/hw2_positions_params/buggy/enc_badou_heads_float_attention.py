# question: encoder_layer_param_count
# fails: test_returns_int, test_default_width_matches_torch, test_explicit_width_matches_torch, test_lesson_figures
# public: should be an int, not float
# makes: enc_float
# batch F (labelled before grading)
# 3 * (h / 12) * h is a float; with the two 2(d^2 + d) beside it the attention holds
# 3 d^2 too many (no diagnosis)
# split: measure
# source: zixuya/BadouNLP, 顾振法/week6/homework.py (the script's transformer layer, liner1 to
# source: layernorm3, with h = d and its 12 heads; its feed-forward width 4*h is d_ff, 4d when None)


def encoder_layer_param_count(d, d_ff=None):
    # 维度
    h = d
    # 多头机制的头数为12
    num_layers = 12
    ff = 4 * h if d_ff is None else d_ff

    # transformer层
    # self-Attention层
    # 多头机制  查询（Q）、键（K）、值（V）的权重矩阵
    # 先过线性层 x = x * w + b
    liner1 = 2*(h*h+h)
    # num_layers * softmax(Q*K.swapaxes(1, 2)/np.sqrt(dk))*V
    atten = num_layers * 3 * (h / num_layers) * h
    # 再过一层线性层
    liner2 = 2*(h*h+h)
    # bn层，使用残差机制，过归一化层
    layernorm2 = 2*h
    # Feed-Forward层,线性层H x 4H+激活函数+线性层4H x H
    mlp = (h * ff + ff) + (ff * h + h)
    # bn层，使用残差机制，再过归一化层
    layernorm3 = 2*h

    return liner1 + atten + liner2 + layernorm2 + mlp + layernorm3
