# source: m2dsupsdlclass/lectures-labs, labs/07_seq2seq/solutions/make_input_output.py
# source: (make_input_output with no source tokens, as the stub has only the continuation: GO and EOS
# source: are sos_id and eos_id)
def make_input_output(source_tokens, target_tokens, GO, EOS, reverse_source=True):
    if reverse_source:
        source_tokens = list(reversed(source_tokens))
    input_tokens = source_tokens + [GO] + target_tokens
    output_tokens = target_tokens + [EOS]
    return input_tokens, output_tokens


def teacher_forcing(continuation, sos_id, eos_id):
    return make_input_output([], list(continuation), sos_id, eos_id)
