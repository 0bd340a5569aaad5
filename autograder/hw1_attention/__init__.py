"""hw1_attention: hidden tests and reference solution (never shipped to students)."""
