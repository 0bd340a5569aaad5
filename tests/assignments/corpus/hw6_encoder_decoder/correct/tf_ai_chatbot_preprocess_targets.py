# split: measure
# source: Manan98/AI_chatbot, chatbot.py (preprocess_targets for a batch of one target, in NumPy: the
# source: target is the answer with its ' <EOS>' appended, as the script's data preparation does, so
# source: continuation + [eos_id]; tf.fill, tf.strided_slice and tf.concat written as NumPy; the
# source: stub's sos_id for word2int['<SOS'], and the pair of lists it returns)
import numpy as np


def preprocess_targets(targets, sos_id, batch_size):
    left_side = np.full([batch_size, 1], sos_id)
    right_side = targets[0:batch_size, 0:-1]
    preprocessed_targets = np.concatenate([left_side, right_side], 1)
    return preprocessed_targets


def teacher_forcing(continuation, sos_id, eos_id):
    targets = np.array([list(continuation) + [eos_id]], dtype=np.int64)
    decoder_input = preprocess_targets(targets, sos_id, 1)
    return [int(t) for t in decoder_input[0]], [int(t) for t in targets[0]]
