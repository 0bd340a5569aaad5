# question: nsp_pair
# fails: test_segment_ids
# public: 0 up to and including the first [SEP], 1 after it
# makes: -
# batch E
# segments 1 and 2, not 0 and 1: no diagnosis
# split: measure
# source: codertimo/BERT-pytorch, bert_pytorch/dataset/dataset.py (BERTDataset.__getitem__'s pair:
# source: t1 and t2 are the two sentences' ids, vocab.sos_index cls_id, vocab.eos_index sep_id; its
# source: truncation to seq_len and padding left out, as the stub has no length)
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    t1, t2 = tokens_a, tokens_b

    # [CLS] tag = SOS tag, [SEP] tag = EOS tag
    t1 = [cls_id] + t1 + [sep_id]
    t2 = t2 + [sep_id]

    segment_label = ([1 for _ in range(len(t1))] + [2 for _ in range(len(t2))])
    bert_input = (t1 + t2)
    return bert_input, segment_label
