# question: nsp_pair
# fails: test_empty_sentences
# public: -
# makes: nsp_no_final_sep
# batch blind-H2 (labelled before grading)
# only when tokens_b is empty (`if s2:`): then the closing [SEP] is missing
# split: measure
# source: nyu-mll/jiant, jiant/huggingface_transformers_interface/modules.py (BertEmbedderModule's
# source: apply_boundary_tokens on ids, "[CLS]" and "[SEP]" being cls_id and sep_id, then get_seg_ids
# source: on the result with an all-ones input_mask; the segment tensor returned as a list)
import torch


def apply_boundary_tokens(s1, s2, cls_id, sep_id):
    # BERT-style boundary token padding on string token sequences
    if s2:
        s = [cls_id] + s1 + [sep_id] + s2 + [sep_id]
    else:
        s = [cls_id] + s1 + [sep_id]
    return s


def get_seg_ids(token_ids, input_mask, sep_id):
    sep_idxs = (token_ids == sep_id).long()
    sep_count = torch.cumsum(sep_idxs, dim=-1) - sep_idxs
    seg_ids = sep_count * input_mask
    return seg_ids


def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    s = apply_boundary_tokens(list(tokens_a), list(tokens_b), cls_id, sep_id)
    ids = torch.tensor(s, dtype=torch.long)
    input_mask = torch.ones_like(ids)
    seg_ids = get_seg_ids(ids, input_mask, sep_id)
    return s, seg_ids.tolist()
