# question: teacher_forcing
def teacher_forcing(continuation, sos_id, eos_id):
    return [sos_id] + list(continuation) + [eos_id], list(continuation) + [eos_id]
