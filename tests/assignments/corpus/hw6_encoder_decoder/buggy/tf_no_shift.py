# question: teacher_forcing
# fails: test_decoder_input_shifted_right
# public: sos, then the target
# diagnosis: tf_no_shift
def teacher_forcing(continuation, sos_id, eos_id):
    return list(continuation) + [eos_id], list(continuation) + [eos_id]
