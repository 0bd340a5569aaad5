# question: teacher_forcing
# fails: test_lengths, test_decoder_input_shifted_right
# public: the target without eos
# diagnosis: tf_eos_in_input
def teacher_forcing(continuation, sos_id, eos_id):
    return [sos_id] + list(continuation) + [eos_id], list(continuation) + [eos_id]
