"""The course's rules: what `grade` reads before grading and applies to what
it graded, never a writer of the report stage's files.

Who the students are and which submission is whose (roster.py, groups.py),
when each came in (lateness.py), the late policy and what it costs
(policy.py, policy_file.py, accommodations.py, late_days.py, penalties.py,
excused.py), and grading by hand: the free-text answers (free_text.py), the
anonymous codes (manual_codes.py), the rubric-scores file (rubric.py) and its
merge (manual_scores.py).

They live apart from report/ so that a rule can change without touching a
writer: report/ imports them, they import nothing of report/
(tests/test_import_rules.py).
"""
