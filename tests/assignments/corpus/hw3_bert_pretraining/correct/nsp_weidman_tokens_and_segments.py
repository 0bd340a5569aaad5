# split: measure
# source: SethHWeidman/bert-error-analysis, preprocess.py (get_tokens_and_segments, taken from d2l:
# source: const.CLASS_TOKEN and const.SEP_TOKEN are cls_id and sep_id, its signature the stub's)
from typing import List, Optional, Tuple


def nsp_pair(tokens_a: List[int], tokens_b: Optional[List[int]], cls_id: int, sep_id: int) -> Tuple:
    '''
    Takes in the tokens from either one sentences or two and returns the "BERT representation"
    of the sentence, with the '<cls>' and '<sep>' tokens in the right places.
    Taken from https://d2l.ai/chapter_natural-language-processing-pretraining/bert.html
    '''
    tokens = [cls_id] + tokens_a + [sep_id]
    # 0 for segment 1, 1 for segment 2
    segments = [0] * (len(tokens_a) + 2)
    if tokens_b is not None:
        tokens += tokens_b + [sep_id]
        segments += [1] * (len(tokens_b) + 1)
    return tokens, segments
