"""hw2_positions_params: hidden tests and reference solution (never shipped to students)."""
