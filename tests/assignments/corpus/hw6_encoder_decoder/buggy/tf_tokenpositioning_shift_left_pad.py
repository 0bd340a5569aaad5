# question: teacher_forcing
# fails: test_lengths, test_decoder_input_shifted_right, test_labels_end_with_eos
# public: then the target without eos
# makes: tf_eos_in_input
# batch G4 (labelled before grading)
# the decoder input is [sos] + y + [eos], the labels y + [eos] + [0] (the pad)
# split: measure
# source: tiffany70072/TokenPositioning, data_generator.py and src/data_loader.py (post_processing's
# source: decoder sentence [SOS_id] + sent + [EOS_id], unpadded, as the decoder input, and
# source: set_decoder_output_data's labels for one sentence, without the Keras reshape; the stub's
# source: sos_id and eos_id for SOS_id and EOS_id, lists returned)
import numpy as np


def set_decoder_output_data(decoder_input):
    decoder_output = decoder_input.copy()
    for i in range(len(decoder_output)):
        decoder_output[i, :-1] = decoder_input[i, 1:]  # Remove the first token in decoder output.
        decoder_output[i, -1] *= 0
    return decoder_output


def teacher_forcing(continuation, sos_id, eos_id):
    decode_sent = [sos_id] + list(continuation) + [eos_id]
    decoder_data = np.array([decode_sent])
    decoder_output = set_decoder_output_data(decoder_data)
    return decoder_data[0].tolist(), decoder_output[0].tolist()
