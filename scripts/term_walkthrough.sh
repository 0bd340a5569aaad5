#!/usr/bin/env bash
# One term as an instructor walks it: a course policy, a Canvas gradebook
# export as the roster, hw1 and hw2 graded from Canvas downloads and with
# submission times, the midterm graded, its free responses scored by hand
# and merged. Prints each command and the files each step wrote.
#
#   bash scripts/term_walkthrough.sh [FOLDER]     (default: a new temp folder)
#
# Run from the repository root; PYTHON overrides .venv/bin/python.
#
# Why each homework is graded twice: a Canvas "Download Submissions" archive
# carries no submission times. Its file names say only whether Canvas
# recorded the work late (`_LATE` after the name); the files' own times are
# those of the unzipping, and the grader never uses them
# (autograder/course/lateness.py). So the Canvas download gives canvas.csv
# and feedback_for_canvas.zip, with late work shown as "recorded late by
# Canvas" and NOT penalised, and the course policy (penalties, extensions,
# late days) is applied from a plain folder whose files carry the submission
# times as their modification times (what a Gradescope export's
# submission_metadata.yml or a folder collected otherwise gives). The plain
# folder's files are named by SIS user id, which the roster's "SIS User ID"
# column matches, so its canvas.csv fills the same Canvas column.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-.venv/bin/python}
DIR=${1:-$(mktemp -d -t term_walkthrough.XXXXXX)}
mkdir -p "$DIR"
DIR=$(cd "$DIR" && pwd)
LIMITS=(--limit notebook_seconds=30 --limit call_seconds=10)
HW1="HW1 Attention (123456)"
HW2="HW2 Positions and Parameters (123457)"
EXAM="Midterm Exam (123458)"

say() { printf '\n=== %s\n' "$*"; }
show() {  # the first lines of a file, under its name
  printf -- '--- %s\n' "${1#"$DIR"/}"
  head -n "${2:-12}" "$1"
}
stamp() {  # stamp FILE ISO-TIME: the file's modification time, as a submission time
  "$PY" -c 'import os, sys; from datetime import datetime as d
t = d.fromisoformat(sys.argv[2]).timestamp(); os.utime(sys.argv[1], (t, t))' "$1" "$2"
}
run_grade() {  # run_grade ARGS...: print the command, run it, list the files it wrote
  local marker="$DIR/.step"
  touch "$marker"
  sleep 1  # files written by this step are newer than the marker, whatever the clock's step
  printf '\n$ %s' "$PY -m autograder grade"
  printf ' %q' "$@"
  printf '\n'
  "$PY" -m autograder grade "$@" "${LIMITS[@]}" --quiet
  echo "files written by this step:"
  find "$DIR" -type f -newer "$marker" ! -name .step | sed "s|^$DIR/|  |" | sort
}
canvas_header() { printf -- '--- %s header: ' "${1#"$DIR"/}"; head -n 1 "$1"; }
zip_names() { printf -- '--- %s entries:\n' "${1#"$DIR"/}"; "$PY" -m zipfile -l "$1"; }

say "the course: policy, accommodations, Canvas gradebook export ($DIR/course)"
mkdir -p "$DIR/course"
cat > "$DIR/course/course.toml" <<'EOF'
[course]
timezone = "America/New_York"
late_days = 3
ledger = "late_days.csv"
accommodations = "accommodations.csv"

[defaults]
grace = "15 min"
penalty_percent = 10
per = "day"
mode = "stepped"
floor_percent = 50
max_late = "10 d"
allow_late_days = true

[assignments.hw1_attention]
due = "2026-02-06T23:59"

[assignments.hw2_positions_params]
due = "2026-02-20T23:59"
EOF
cat > "$DIR/course/accommodations.csv" <<'EOF'
student,assignment,due,extra_days,excused,reason
s1004,hw1_attention,,2,,accommodation letter: two more days on hw1
EOF
cat > "$DIR/course/roster.csv" <<EOF
Student,ID,SIS User ID,SIS Login ID,Section,$HW1,$HW2,$EXAM,Current Score
    Points Possible,,,,,18,100,28,
"Lovelace, Ada",1001,s1001,ada,A,,,,
"Turing, Alan",1002,s1002,alan,A,,,,
"Noether, Emmy",1003,s1003,emmy,B,,,,
"Goedel, Kurt",1004,s1004,kurt,B,,,,
"Hopper, Grace",1005,s1005,grace,B,,,,
EOF
for f in course.toml accommodations.csv roster.csv; do show "$DIR/course/$f" 30; done

# homework ASSIGNMENT EXAMPLES CANVAS_COLUMN: writes DIR/ASSIGNMENT/{canvas_download,timed}
# from lines "canvas_name|sis_id|example|submitted at" on stdin.
homework() {
  local id=$1 examples=$2 column=$3 base="$DIR/$1"
  mkdir -p "$base/canvas_download" "$base/timed"
  while IFS='|' read -r canvas sis example when; do
    cp "$examples/$example" "$base/canvas_download/$canvas"
    cp "$examples/$example" "$base/timed/$sis.ipynb"
    stamp "$base/timed/$sis.ipynb" "$when"
  done
  say "$id: the Canvas download (unzipped): LATE marks, no times"
  ls "$base/canvas_download"
  run_grade "$base/canvas_download" --assignment "$id" --out "$base/out_canvas" \
    --policy "$DIR/course/course.toml" --roster "$DIR/course/roster.csv" \
    --canvas-column "$column"
  canvas_header "$base/out_canvas/canvas.csv"
  show "$base/out_canvas/canvas.csv"
  show "$base/out_canvas/gradebook.csv"
  zip_names "$base/out_canvas/feedback_for_canvas.zip"
  say "$id: the same work with its submission times (file times): the policy applies"
  ls -l --time-style=+%FT%T%z "$base/timed"
  run_grade "$base/timed" --assignment "$id" --out "$base/out" \
    --policy "$DIR/course/course.toml" --roster "$DIR/course/roster.csv" \
    --canvas-column "$column"
  canvas_header "$base/out/canvas.csv"
  show "$base/out/canvas.csv"
  show "$base/out/gradebook.csv"
  show "$DIR/course/late_days.csv" 30
}

# hw1 (due 2026-02-06 23:59 EST): Ada on time; Alan 9 days late: 10% a started
# day down to the 50% floor, where late days would save nothing, so none are
# spent; Emmy 1 d 3 h late: spends 2 late days; Kurt late by the due date but
# on time by his 2-day extension.
homework hw1_attention examples/hw1_attention "$HW1" <<'EOF'
lovelaceada_1001_7100001_hw1_attention.ipynb|s1001|full_solution.ipynb|2026-02-06T20:00-05:00
turingalan_LATE_1002_7100002_hw1_attention.ipynb|s1002|partial_mistakes.ipynb|2026-02-15T22:00-05:00
noetheremmy_LATE_1003_7100003_hw1_attention.ipynb|s1003|broken_cells.ipynb|2026-02-08T03:00-05:00
goedelkurt_1004_7100004_hw1_attention.ipynb|s1004|full_solution.ipynb|2026-02-08T18:00-05:00
EOF

# hw2 (due 2026-02-20 23:59 EST): Ada 11 min late, within the grace; Emmy
# 2 d 5 h late with 1 late day left: it covers one day, the rest (2 started
# days) costs 20%.
homework hw2_positions_params examples/hw2_positions_params "$HW2" <<'EOF'
lovelaceada_LATE_1001_7200001_hw2_positions_params.ipynb|s1001|full_solution.ipynb|2026-02-21T00:10-05:00
turingalan_1002_7200002_hw2_positions_params.ipynb|s1002|typical_slips.ipynb|2026-02-20T12:00-05:00
noetheremmy_LATE_1003_7200003_hw2_positions_params.ipynb|s1003|partial_mistakes.ipynb|2026-02-23T05:00-05:00
goedelkurt_1004_7200004_hw2_positions_params.ipynb|s1004|full_solution.ipynb|2026-02-19T09:00-05:00
EOF

say "the instructor waives Emmy's hw1 late days (a server outage): edits the ledger, re-grades hw2"
mkdir -p "$DIR/kept"  # copies of what the next steps overwrite, to compare
cp "$DIR/course/late_days.csv" "$DIR/kept/late_days_before_waiver.csv"
cp "$DIR/hw2_positions_params/out/gradebook.csv" "$DIR/kept/hw2_gradebook_before_waiver.csv"
"$PY" - "$DIR/course/late_days.csv" <<'EOF'
import csv, sys
path = sys.argv[1]
with open(path, newline="") as f:
    rows = list(csv.DictReader(f))
for row in rows:
    if row["student"] == "s1003" and row["assignment"] == "hw1_attention":
        row.update(days="0", source="instructor", note="waived: the server was down")
with open(path, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0]))
    w.writeheader()
    w.writerows(rows)
EOF
show "$DIR/course/late_days.csv" 30
run_grade "$DIR/hw2_positions_params/timed" --assignment hw2_positions_params \
  --out "$DIR/hw2_positions_params/out" --policy "$DIR/course/course.toml" \
  --roster "$DIR/course/roster.csv" --canvas-column "$HW2"
show "$DIR/hw2_positions_params/out/gradebook.csv"
show "$DIR/course/late_days.csv" 30

say "the midterm: a Gradescope export (examples/exam_midterm), autograded part first"
cp -r examples/exam_midterm "$DIR/exam_midterm"
ls "$DIR/exam_midterm"
EXAM_OUT="$DIR/exam_out"
run_grade "$DIR/exam_midterm" --assignment exam_midterm --out "$EXAM_OUT" \
  --policy "$DIR/course/course.toml" --roster "$DIR/course/roster.csv" --canvas-column "$EXAM"
canvas_header "$EXAM_OUT/canvas.csv"
show "$EXAM_OUT/canvas.csv"
show "$EXAM_OUT/gradebook.csv"
show "$EXAM_OUT/manual/rubric_scores.csv"

cp "$EXAM_OUT/canvas.csv" "$DIR/kept/exam_canvas_autograded.csv"
cp "$EXAM_OUT/gradebook.csv" "$DIR/kept/exam_gradebook_autograded.csv"
say "a TA fills DIR/manual/rubric_scores.csv (4/4 on fr_bidirectional, 1.5/3 on fr_variant_check)"
"$PY" - "$EXAM_OUT/manual/rubric_scores.csv" <<'EOF'
import csv, sys
SCORES = {"fr_bidirectional": ("4", "clear: the mask is the difference"),
          "fr_variant_check": ("1.5", "the count is right, the reason is missing")}
with open(sys.argv[1], newline="") as f:
    reader = csv.DictReader(f)
    fields, rows = reader.fieldnames, list(reader)
for row in rows:
    row["points"], row["comment"] = SCORES[row["question"]]
with open(sys.argv[1], "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=fields)
    w.writeheader()
    w.writerows(rows)
EOF
show "$EXAM_OUT/manual/rubric_scores.csv"
run_grade "$DIR/exam_midterm" --assignment exam_midterm --out "$EXAM_OUT" \
  --policy "$DIR/course/course.toml" --roster "$DIR/course/roster.csv" --canvas-column "$EXAM" \
  --manual-scores "$EXAM_OUT/manual/rubric_scores.csv"
canvas_header "$EXAM_OUT/canvas.csv"
show "$EXAM_OUT/canvas.csv"
show "$EXAM_OUT/gradebook.csv"

say "done: everything is under $DIR"
