# Graded between the reference and each exam variant, after SUBMISSION_ID (see
# autograder/corpus.py): the submitter's identity and right short answers, as a
# student who got Part A right has them; a variant then changes what it is about.
import hashlib

STUDENT_ID = SUBMISSION_ID  # the cell before defines it


def _numbers(question):
    """The submitter's numbers of `question`, derived as the notebook derives them."""
    names, rows = VARIANTS[question]  # the reference cell defines VARIANTS, EXAM and the answers
    identity = " ".join(STUDENT_ID.split()).lower()
    digest = hashlib.sha256(f"{EXAM}|{question}|{identity}".encode()).digest()
    return dict(zip(names, rows[int.from_bytes(digest[:8], "big") % len(rows)]))


P = {question: _numbers(question) for question in VARIANTS}
ENCODER_LAYER_PARAMS = encoder_params(**P["encoder_params"])
CROSS_ATTENTION_SHAPE = cross_attention_shape(**P["cross_attention_shape"])
MASK_FRACTION = mask_fraction(**P["mask_fraction"])
CHANCE_LOSS = chance_loss(**P["chance_level"])
CHANCE_PERPLEXITY = chance_perplexity(**P["chance_level"])
