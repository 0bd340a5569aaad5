# question: nsp_pair
# split: measure
# source: yg211/bert_nli, utils/utils.py (get_pair_input for a 'bert-' model: the text
# source: "[CLS] {} [SEP] {} [SEP]" built from the ids, tokens_a and tokens_b, with cls_id and sep_id;
# source: tokenized_text[i] == '[SEP]' is ids[i] == sep_id; its 500-token cut-off left out)
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    indexed_tokens = [cls_id] + list(tokens_a) + [sep_id] + list(tokens_b) + [sep_id]

    # Define sentence A and B indices associated to 1st and 2nd sentences (see paper)
    segments_ids = []
    sep_flag = False
    for i in range(len(indexed_tokens)):
        if indexed_tokens[i] == sep_id and not sep_flag:
            segments_ids.append(0)
            sep_flag = True
        elif sep_flag:
            segments_ids.append(1)
        else:
            segments_ids.append(0)
    return indexed_tokens, segments_ids
