# question: teacher_forcing
# fails: test_lengths, test_decoder_input_shifted_right
# public: then the target without eos
# makes: tf_eos_in_input
# batch G3 (labelled before grading)
# batch G3, third round (labelled before grading):
# the decoder input is the whole [sos] + y + [eos], the labels y + [eos]
# split: measure
# source: keras-team/keras-io, examples/nlp/lstm_seq2seq.py (the data preparation for one target:
# source: "\t" and "\n" are sos_id and eos_id, ids in lists stand for the one-hot rows, no padding)
def teacher_forcing(continuation, sos_id, eos_id):
    # We use "tab" as the "start sequence" character
    # for the targets, and "\n" as "end sequence" character.
    target_text = [sos_id] + list(continuation) + [eos_id]

    decoder_input_data = []
    decoder_target_data = []
    for t, char in enumerate(target_text):
        # decoder_target_data is ahead of decoder_input_data by one timestep
        decoder_input_data.append(char)
        if t > 0:
            # decoder_target_data will be ahead by one timestep
            # and will not include the start character.
            decoder_target_data.append(char)
    return decoder_input_data, decoder_target_data
