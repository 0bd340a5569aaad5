# question: teacher_forcing
# fails: test_labels_end_with_eos
# public: the target, then eos
# diagnosis: tf_labels_keep_sos
def teacher_forcing(continuation, sos_id, eos_id):
    return [sos_id] + list(continuation), [sos_id] + list(continuation)
