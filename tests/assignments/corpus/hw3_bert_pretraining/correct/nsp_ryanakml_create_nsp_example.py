# split: measure
# source: Ryanakml/BERT, python/pretrain.py (create_nsp_example's sequence and segment ids, its
# source: sentence_a and sentence_b being tokens_a and tokens_b, '[CLS]' and '[SEP]' cls_id and sep_id;
# source: the sentence sampling and the NSP label left out, the stub being given the pair)
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    sentence_a = list(tokens_a)
    sentence_b = list(tokens_b)

    # Construct the complete sequence with special tokens
    tokens = [cls_id] + sentence_a + [sep_id] + sentence_b + [sep_id]

    # Create segment IDs (0 for first sentence, 1 for second sentence)
    segment_ids = [0] * (len(sentence_a) + 2) + [1] * (len(sentence_b) + 1)

    return tokens, segment_ids
