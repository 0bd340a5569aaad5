# sinusoidal_pe from a cached table per d that is rebuilt, twice as long, whenever
# more positions are asked for than it holds: sliced, but never too short
import numpy as np

_TABLES = {}


def sinusoidal_pe(n_pos, d):
    if not isinstance(d, int) or isinstance(d, bool) or d <= 0 or d % 2:
        raise ValueError("d must be a positive even int")
    if not isinstance(n_pos, int) or isinstance(n_pos, bool) or n_pos < 0:
        raise ValueError("n_pos must be an int >= 0")
    table = _TABLES.get(d)
    if table is None or len(table) < n_pos:
        size = max(512, 2 * n_pos)
        angle = np.arange(size)[:, None] * np.exp(np.arange(0, d, 2) * (-np.log(10000.0) / d))
        table = np.empty((size, d))
        table[:, 0::2], table[:, 1::2] = np.sin(angle), np.cos(angle)
        _TABLES[d] = table
    return table[:n_pos].copy()
