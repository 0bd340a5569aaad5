import sys

from autograder.worker.template import main

main(sys.argv[1:])
