# source: graykode/nlp-tutorial, 5-2.BERT/BERT-Torch.py (make_batch's pair: tokens_a and tokens_b are
# source: the two sentences' ids, word_dict['[CLS]'] and word_dict['[SEP]'] cls_id and sep_id; its
# source: masking and padding left out)
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    tokens_a, tokens_b = list(tokens_a), list(tokens_b)
    input_ids = [cls_id] + tokens_a + [sep_id] + tokens_b + [sep_id]
    segment_ids = [0] * (1 + len(tokens_a) + 1) + [1] * (len(tokens_b) + 1)
    return input_ids, segment_ids
