"""The submission intake: finding entries in a folder, a Canvas download or a
Gradescope export, and reading their bytes and notebooks, bounded as hostile.
"""
