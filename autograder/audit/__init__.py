"""`audit`: mutation analysis of an assignment's hidden tests (mutate.py makes
the mutants, run.py grades and classifies them, report.py shows the result)."""
