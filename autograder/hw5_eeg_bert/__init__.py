"""hw5_eeg_bert: hidden tests and reference solution (never shipped to students).

torch is imported here, once, while the assignment loads: checks and the
protocol import it lazily, and a first import racing between the threads
that grade several submissions leaves a half-initialised module
("partially initialized module 'torch' has no attribute 'Tensor"). The
student's worker still refuses torch (grading_config forbid).
"""
import torch  # noqa: F401
