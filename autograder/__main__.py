from autograder.cli import console

console()
