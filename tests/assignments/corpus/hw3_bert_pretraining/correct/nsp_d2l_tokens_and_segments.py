# split: measure
# source: kaddly/NaturalLanguageProcessing, PreTrain/Bert/utils.py (get_tokens_and_segments, d2l's:
# source: '<cls>' and '<sep>' are cls_id and sep_id, its signature the stub's)
def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    """获取输⼊序列的词元及其⽚段索引"""
    tokens = [cls_id] + tokens_a + [sep_id]
    # 0和1分别标记⽚段A和B
    segment = [0] * (len(tokens_a) + 2)
    if tokens_b is not None:
        tokens += tokens_b + [sep_id]
        segment += [1] * (len(tokens_b) + 1)
    return tokens, segment
