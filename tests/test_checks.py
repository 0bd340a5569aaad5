"""Do the hidden tests' checks point at the cause, without giving the answer away?"""
import numpy as np
import pytest
import torch

from autograder import checks
from autograder.checks import Fail


def _message(check, *args, **kwargs) -> str:
    with pytest.raises(Fail) as info:
        check(*args, **kwargs)
    return str(info.value)


def test_float32_is_told_the_tolerance_and_the_cause():
    """A float32 table misses a 1e-9 tolerance: the message says by how much, and why."""
    x = np.sin(np.arange(1, 50, dtype=np.float64))
    text = _message(checks.expect_close, x.astype(np.float32), x, "pe", rtol=0, atol=1e-9)
    assert "of order 1e-08" in text and "tolerance 1e-09" in text
    assert "your values are all float32 numbers" in text
    big = np.sin(np.arange(1, 50, dtype=np.float32) * np.float32(3000.0)).astype(np.float64)
    text = _message(checks.expect_close, big, np.sin(np.arange(1, 50) * 3000.0), "pe",
                    rtol=0, atol=1e-8)  # errors of 1e-4: too big to be called rounding
    assert "float32 numbers" in text


def test_small_differences_are_called_rounding():
    x = np.sin(np.arange(1, 50, dtype=np.float64))
    text = _message(checks.expect_close, x * (1 + 3e-8), x, "f(x)", rtol=0, atol=1e-9)
    assert "rounding" in text and "float32 numbers" not in text


def test_a_wrong_value_is_not_called_rounding():
    x = np.linspace(0.0, 1.0, 7)
    text = _message(checks.expect_close, x + 0.25, x, "f(x)", rtol=1e-5, atol=1e-6)
    assert "of order 1e-01" in text and "rounding" not in text
    assert "0.25" not in text.split("yours is")[0]  # never the expected value


def test_nan_where_a_number_is_expected():
    text = _message(checks.expect_close, torch.tensor([float("nan"), 1.0]),
                    torch.tensor([0.5, 1.0]), "loss")
    assert "nan or inf" in text


def test_agrees_never_fails():
    assert checks.agrees([1.0, 2.0], [1.0, 2.0]) and not checks.agrees([1.0], [2.0])
    assert not checks.agrees(np.zeros(3), np.zeros(4))


def test_as_int_reads_whole_numbers_of_any_type():
    """A count's type is its own test's subject: the value is read from any whole number."""
    for value in (12, np.int64(12), 12.0, torch.tensor(12), np.array(12)):
        assert checks.as_int(value, "count") == 12
    for bad in (12.5, True, "12", None):
        with pytest.raises(Fail):
            checks.as_int(bad, "count")


def test_expect_dtype_takes_the_dtype_as_authors_write_it():
    """np.float64, np.dtype("float64"), "float64", torch.float32 and "torch.float32"
    name dtypes alike; a Python value has only its type's name."""
    import torch
    from autograder.checks import expect_dtype
    for spec in (np.float64, np.dtype("float64"), "float64"):
        expect_dtype(np.zeros(2), spec, "x")
    for spec in (torch.float32, "torch.float32", "float32", np.float32):
        expect_dtype(torch.zeros(2), spec, "t")
    with pytest.raises(Fail, match="dtype float32, expected float64"):
        expect_dtype(np.zeros(2, np.float32), np.float64, "x")
    with pytest.raises(Fail, match="dtype int, expected int64"):
        expect_dtype(3, "int64", "n")
    expect_dtype(3, "int", "n")


def test_nan_never_reads_as_a_change():
    """`not allclose` reads nan as moved (nan is close to nothing): changed() fails the
    test instead, and compares finite answers as allclose does."""
    y = torch.linspace(-1.0, 1.0, 6)
    assert not checks.changed(y, y + 1e-7, "out", rtol=1e-5, atol=1e-6)
    assert checks.changed(y, y + 1e-3, "out", rtol=1e-5, atol=1e-6)
    for moved in (torch.full_like(y, float("nan")), y.clone().index_fill_(0, torch.tensor([2]),
                                                                          float("inf"))):
        assert not torch.allclose(y, moved)  # what the tests once read as "it changed"
        assert "nan or inf" in _message(checks.changed, y, moved, "out")
        assert "nan or inf" in _message(checks.changed, moved, y, "out")
    assert "shape (2, 3) here, (6,) before" in _message(checks.changed, y, y.view(2, 3), "out")


def test_expect_finite_names_what_holds_nan():
    assert checks.expect_finite(np.arange(3), "x").tolist() == [0, 1, 2]
    assert "x: holds nan or inf" in _message(checks.expect_finite, [1.0, np.nan], "x")
    assert "not numbers" in _message(checks.expect_finite, np.array(["a"]), "x")


def test_a_message_reads_the_same_whatever_the_last_bits():
    """float32 results differ in their last bit between CPUs (the order of a
    vector kernel's sums); the student's entry is shown to six digits."""
    expected = torch.tensor([1.0])
    messages = set()
    for yours in (0.45553556084632874, 0.45553553104400635):
        with pytest.raises(Fail) as caught:
            checks.expect_close(torch.tensor([yours]), expected, what="w")
        messages.add(str(caught.value))
    assert len(messages) == 1 and "yours is 0.455536" in messages.pop()
