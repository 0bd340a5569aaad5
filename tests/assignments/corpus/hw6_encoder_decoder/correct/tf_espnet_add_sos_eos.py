# split: measure
# source: espnet/espnet, espnet/nets/pytorch_backend/transformer/add_sos_eos.py (add_sos_eos for one
# source: unpadded sequence, in NumPy: torch.cat as np.concatenate, no ignore_id to strip and no
# source: pad_list; the pair returned as the two lists the stub returns)
import numpy as np


def add_sos_eos(ys, sos, eos, repeat=1):
    _sos = np.tile(np.array([sos], dtype=np.int64), repeat)
    _eos = np.tile(np.array([eos], dtype=np.int64), repeat)
    ys_in = [np.concatenate([_sos, y], axis=0) for y in ys]
    ys_out = [np.concatenate([y, _eos], axis=0) for y in ys]
    return ys_in, ys_out


def teacher_forcing(continuation, sos_id, eos_id):
    y = np.asarray(list(continuation), dtype=np.int64)
    ys_in, ys_out = add_sos_eos([y], sos_id, eos_id)
    return ys_in[0].tolist(), ys_out[0].tolist()
