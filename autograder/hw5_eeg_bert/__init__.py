"""hw5_eeg_bert: hidden tests and reference solution (never shipped to students)."""
