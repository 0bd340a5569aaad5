#!/usr/bin/env bash
# Set up the environment, build every assignment, then grade the example
# submissions of each into out/<assignment>/ and print the summaries.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python -m autograder build
for folder in examples/*/; do
  id=$(basename "$folder")
  [ -f "grading_config/$id.toml" ] || continue
  echo
  .venv/bin/python -m autograder grade "$folder" --assignment "$id" --out "out/$id"
done
echo
echo "Student notebooks: assignments/<id>/<id>.ipynb; Gradescope zips: build/gradescope/<id>.zip"
