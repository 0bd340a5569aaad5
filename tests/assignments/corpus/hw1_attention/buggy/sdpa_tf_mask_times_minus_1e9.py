# question: scaled_dot_product_attention
# fails: test_values_with_masks, test_keyword_mask, test_large_scores_stay_finite_with_mask, test_seed_table_causal
# public: must get weight 0, not nan
# makes: -
# adds mask * -1e9, reading the additive mask as 1 where hidden: -inf becomes +inf
# (no diagnosis)
# source: BinhMinhs10/transformers_onnx, transformer_tf_translation/scaled_dot_product_attention.py
# source: (TensorFlow's matmul, cast, sqrt and softmax written as torch's; its tf.matpul, a typo, read
# source: as tf.matmul)
import torch


def scaled_dot_product_attention(q, k, v, mask=None):
    """calculate the attention weight."""
    matmul_qk = torch.matmul(q, k.transpose(-2, -1))

    # scale matmul_qk
    dk = torch.tensor(k.shape[-1], dtype=torch.float32)
    scaled_attention_logits = matmul_qk / torch.sqrt(dk)

    # add the mask to the scaled tensor
    if mask is not None:
        scaled_attention_logits += (mask * -1e9)

    # softmax is normalized on the last axis (seq_len_k) so that the score
    # add up to 1
    attention_weights = torch.softmax(scaled_attention_logits, dim=-1) # (..., seq_len_q, seq_len_k)
    output = torch.matmul(attention_weights, v) # (..., seq_len_q, depth_v)
    return output, attention_weights
