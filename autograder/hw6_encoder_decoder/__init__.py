"""hw6_encoder_decoder: hidden tests and reference solution (never shipped to students)."""
