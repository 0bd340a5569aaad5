# question: identity
# fails: test_student_id_matches_submitter
# no misconception: never diagnosed
# A neighbour's notebook handed in as one's own: graded with the submitter's numbers.
STUDENT_ID = "s1001"
