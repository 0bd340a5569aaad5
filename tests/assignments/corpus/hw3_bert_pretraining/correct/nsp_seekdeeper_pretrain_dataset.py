# question: nsp_pair
# split: measure
# source: Kamichanw/SeekDeeper, bert/data.py (PretrainDataset.__getitem__'s pair: the masked sentences
# source: are tokens_a and tokens_b, tokenizer.cls_token_id and sep_token_id cls_id and sep_id; its
# source: masking, labels and attention mask left out)
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    masked_sentence_a, masked_sentence_b = list(tokens_a), list(tokens_b)
    input_ids = (
        [cls_id]
        + masked_sentence_a
        + [sep_id]
        + masked_sentence_b
        + [sep_id]
    )

    segment_label = [0] * (1 + len(masked_sentence_a) + 1) + [1] * (
        len(masked_sentence_b) + 1
    )
    return input_ids, segment_label
