"""The untrusted side: runs one student's notebook and answers the grader.

Imports only the standard library, numpy/torch, autograder.protocol and the
kernel helpers of autograder.kernel (never the hidden tests, the reference
or the config), because everything here shares a process with the student's
code.
"""
