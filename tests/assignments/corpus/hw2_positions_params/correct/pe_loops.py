# sinusoidal_pe with plain loops and math.sin / math.cos, one entry at a time
import math

import numpy as np


def sinusoidal_pe(n_pos, d):
    if type(d) is not int or d <= 0 or d % 2 == 1:
        raise ValueError("d must be a positive even int")
    if type(n_pos) is not int or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")
    rows = []
    for p in range(n_pos):
        row = []
        for i in range(d // 2):
            angle = p / (10000 ** (2 * i / d))
            row += [math.sin(angle), math.cos(angle)]
        rows.append(row)
    return np.array(rows, dtype=np.float64).reshape(n_pos, d)
