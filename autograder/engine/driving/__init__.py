"""Driving the hidden tests: collecting them, running them against a
worker, the student's side as handles, callbacks, what is sent ahead.
"""
