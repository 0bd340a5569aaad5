# question: greedy_decode
# fails: test_starts_with_sos, test_argmax_each_step, test_step_called_once_per_token
# public: step must get the ids so far
# public: must start with sos
# makes: gd_last_token_only, gd_without_sos
# batch G3 (labelled before grading)
# step given the last id only, the ids returned without sos_id; also max_len + 1 ids
# before it stops at the length (len > max_len) (no diagnosis for that)
# split: measure
# source: keras-team/keras-io, examples/nlp/lstm_seq2seq.py (decode_sequence: the decoder model and
# source: its states become step, given the one-token target sequence; "\t" and "\n" are sos_id
# source: and eos_id, max_decoder_seq_length is max_len, and the ids decoded are returned as a list)
import numpy as np


def greedy_decode(step, sos_id, eos_id, max_len):
    max_decoder_seq_length = max_len

    # Populate the first character of target sequence with the start character.
    target_seq = [sos_id]

    # Sampling loop for a batch of sequences
    # (to simplify, here we assume a batch of size 1).
    stop_condition = False
    decoded_sentence = []
    while not stop_condition:
        output_tokens = step(target_seq)

        # Sample a token
        sampled_token_index = int(np.argmax(output_tokens))
        decoded_sentence += [sampled_token_index]

        # Exit condition: either hit max length
        # or find stop character.
        if sampled_token_index == eos_id or len(decoded_sentence) > max_decoder_seq_length:
            stop_condition = True

        # Update the target sequence (of length 1).
        target_seq = [sampled_token_index]

    return decoded_sentence
