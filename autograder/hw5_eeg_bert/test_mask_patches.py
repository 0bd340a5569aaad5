"""Hidden tests: mask_patches."""
import numpy as np

from autograder.testing import as_array, expect_close, expect_ndarray, fail, sent_source

QUESTION = "mask_patches"
# runs in the student's worker: is the array the student received left alone?
IN_PLACE_PROBE = sent_source(__file__, "in_place_probe")


def _case(seed, T=9, d=8):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(T, d)), rng.normal(size=d)


def test_replaces_masked_rows(ref, student):
    """rows at the given positions become the mask vector; the other rows are unchanged"""
    for seed, (T, d, positions) in enumerate([(9, 8, [4, 8]), (5, 3, [0]), (12, 6, [1, 5, 7, 11]),
                                             (4, 4, [3, 0]), (6, 2, [])]):
        z, m = _case(seed, T, d)
        what = f"mask_patches(z of shape {(T, d)}, {positions}, mask_vector)"
        out = expect_ndarray(student.mask_patches(z, positions, m), what)
        expect_close(out, ref.mask_patches(z, positions, m), what, rtol=0, atol=0)


def test_positions_as_array_or_tuple(student):
    """positions given as a numpy integer array or a tuple give what the same list gives"""
    # Compared with the student's own answer for a list, so a wrong masking (the previous
    # test's subject) does not fail this test too.
    z, m = _case(7, 9, 8)
    for positions in (np.array([2, 6]), (1, 3, 5)):
        what = f"mask_patches(z, {positions!r}, mask_vector)"
        as_list = student.mask_patches(z, [int(p) for p in positions], m)
        expect_close(student.mask_patches(z, positions, m), as_list,
                     what + " (compared with the same positions as a list)", rtol=0, atol=0)
        _expect_masks(z, as_list, what, len(positions))


def _expect_masks(z, out, what, masked: int):
    """The answer is z with `masked` rows changed: a test judged on the student's own
    answers pays nothing for a function that masks nothing, or changes every row (nan
    included)."""
    out = as_array(out, what)  # a list of rows of unequal length fails here, not below
    if out.shape != np.shape(z):
        fail(f"{what}: the result is not an array of z's shape")
    if out.dtype.kind not in "biuf":
        fail(f"{what}: the result's entries are not numbers")
    if np.array_equal(out, z):
        fail(f"{what}: the result is z unchanged; nothing was masked")
    rows = int((~np.all(out == z, axis=-1)).sum())  # nan differs from everything
    if rows != masked:
        fail(f"{what}: {rows} rows of z changed, not the {masked} masked ones")


def test_input_not_modified(student):
    """returns a new array and leaves z unchanged"""
    unchanged, same_object, out = student.build(IN_PLACE_PROBE, "probe",
                                                student.value("mask_patches"))
    if not unchanged:
        fail("mask_patches(z, ...) modified z: work on a copy")
    if same_object:
        fail("mask_patches(z, ...) returned z itself, not a copy")
    _expect_masks(np.arange(36, dtype=np.float64).reshape(9, 4), out,
                  "mask_patches(z of shape (9, 4), [4, 8], mask_vector)", 2)
