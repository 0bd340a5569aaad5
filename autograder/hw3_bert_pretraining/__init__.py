"""hw3_bert_pretraining: hidden tests and reference solution (never shipped to students)."""
