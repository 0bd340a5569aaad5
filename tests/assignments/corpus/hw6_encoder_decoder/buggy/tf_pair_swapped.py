# question: teacher_forcing
# fails: test_decoder_input_shifted_right, test_labels_end_with_eos
# public: sos, then the target
# diagnosis: tf_swapped
def teacher_forcing(continuation, sos_id, eos_id):
    return list(continuation) + [eos_id], [sos_id] + list(continuation)
