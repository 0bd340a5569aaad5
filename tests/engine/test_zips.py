"""Is what zipfile would read of a submitted zip bounded before it reads it?"""
from __future__ import annotations

import zipfile

import pytest

from autograder.engine.intake import zips
from tests.security.bombs import member_bomb

NOTEBOOK = b'{"cells": [], "nbformat": 4, "nbformat_minor": 5, "metadata": {}}'


def test_a_zip_of_many_members_is_refused_before_its_directory_is_read(tmp_path, monkeypatch):
    """Is a zip whose end record counts more than MAX_MEMBERS refused without
    ZipFile ever being made (which would build every entry first)?"""
    path = member_bomb(tmp_path / "many.zip", NOTEBOOK, zips.MAX_MEMBERS + 1)
    monkeypatch.setattr(zipfile, "ZipFile", lambda *a, **k: pytest.fail("ZipFile was made"))
    with open(path, "rb") as raw, pytest.raises(zips.ZipRefused, match="more than 10,000 files"):
        zips.open_bounded(raw)


def test_a_lying_member_count_is_caught_by_the_directory_size_or_the_entries(tmp_path):
    """Does a zip whose end record claims one member still get refused: by its
    directory's size (40,000 members), or by its entries once built (12,000)?"""
    for count in (40_000, 12_000):
        path = member_bomb(tmp_path / f"lies{count}.zip", NOTEBOOK, count, stated=1)
        with open(path, "rb") as raw, pytest.raises(zips.ZipRefused):
            zips.open_bounded(raw)


def test_a_zip_within_bounds_opens_and_its_notebook_reads(tmp_path):
    path = member_bomb(tmp_path / "ok.zip", NOTEBOOK, zips.MAX_MEMBERS - 1)
    with open(path, "rb") as raw, zips.open_bounded(raw) as zf:
        info = zf.getinfo("hw1_attention.ipynb")
        assert zips.read_member(zf, info, 2**20, "hw1_attention.ipynb") == NOTEBOOK


def test_a_member_is_never_decompressed_from_more_than_its_bound():
    """Is a member whose directory entry declares more compressed bytes than a
    notebook of the limit could take refused before a byte of it is read?"""
    info = zipfile.ZipInfo("hw1_attention.ipynb")
    info.file_size, info.compress_size = 100, zips.max_member_bytes(2**20) + 1
    with pytest.raises(zips.ZipRefused, match="larger than 1 MB"):
        zips.read_member(None, info, 2**20, "hw1_attention.ipynb")
