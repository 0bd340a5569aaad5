"""The trusted side of grading: reads submissions, drives workers, runs the
hidden tests and writes results. Nothing here imports or unpickles what a
submission produced."""
