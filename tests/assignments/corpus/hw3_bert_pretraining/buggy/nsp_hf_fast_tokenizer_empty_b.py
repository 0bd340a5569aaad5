# question: nsp_pair
# fails: test_empty_sentences
# public: -
# makes: nsp_no_final_sep
# batch G2 (labelled before grading)
# only when tokens_b is empty (`if token_ids_1:`): then the closing [SEP] is missing and
# segment_ids is one longer than input_ids
# split: measure
# source: A1ex-Chen/DL_project_log, data/framing-bias-metric/src/transformers/models/bert/tokenization_bert_fast_build_inputs_with_special_tokens.py
# source: and data/CokeBert/.../transformers/tokenization_bert_create_token_type_ids_from_sequences.py
# source: (BertTokenizerFast.build_inputs_with_special_tokens and BertTokenizer's
# source: create_token_type_ids_from_sequences as functions: self.cls_token_id and self.sep_token_id are
# source: cls_id and sep_id, token_ids_0 and token_ids_1 tokens_a and tokens_b)
def build_inputs_with_special_tokens(cls_token_id, sep_token_id, token_ids_0, token_ids_1=None):
    output = [cls_token_id] + token_ids_0 + [sep_token_id]
    if token_ids_1:
        output += token_ids_1 + [sep_token_id]
    return output


def create_token_type_ids_from_sequences(cls_token_id, sep_token_id, token_ids_0, token_ids_1=None):
    sep = [sep_token_id]
    cls = [cls_token_id]
    if token_ids_1 is None:
        return len(cls + token_ids_0 + sep) * [0]
    return len(cls + token_ids_0 + sep) * [0] + len(token_ids_1 + sep) * [1]


def nsp_pair(tokens_a, tokens_b, cls_id, sep_id):
    tokens_a, tokens_b = list(tokens_a), list(tokens_b)
    input_ids = build_inputs_with_special_tokens(cls_id, sep_id, tokens_a, tokens_b)
    segment_ids = create_token_type_ids_from_sequences(cls_id, sep_id, tokens_a, tokens_b)
    return input_ids, segment_ids
