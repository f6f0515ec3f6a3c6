"""Result folders keyed by what produced them; files written whole, with the user's permissions."""

from __future__ import annotations

import csv
import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.atomic import write_csv_atomically, write_text_atomically
from stratpol.errors import InputError
from stratpol.provenance import PROVENANCE, Provenance, claim_folder, content_hash, model_hash, path_hash

RESULTS = ("runs.jsonl", "scaling.json")


def evaluation(source: str = "policy-a", epsilon: float = 0.05, max_size: int = 50) -> Provenance:
    return Provenance("scaling evaluation", source, "gripper", {"epsilon": epsilon, "max_size": max_size},
                      free=("max_size",))


def test_a_folder_is_resumed_by_what_began_it_and_refused_to_anything_else(tmp_path):
    claim_folder(tmp_path, evaluation(), RESULTS)
    (tmp_path / "runs.jsonl").write_text("{}\n")
    claim_folder(tmp_path, evaluation(max_size=100), RESULTS)  # a larger max_size extends it
    assert (tmp_path / "runs.jsonl").read_text() == "{}\n"
    with pytest.raises(InputError) as refused:
        claim_folder(tmp_path, evaluation(source="policy-b", epsilon=0.1), RESULTS)
    message = str(refused.value)
    assert "\n" not in message and str(tmp_path) in message
    assert "policy policy-b (the folder's: policy-a)" in message and "epsilon 0.1 (the folder's: 0.05)" in message
    assert (tmp_path / "runs.jsonl").is_file()  # refused: nothing touched


def test_force_empties_a_folder_of_other_results(tmp_path):
    claim_folder(tmp_path, evaluation(), RESULTS)
    (tmp_path / "runs.jsonl").write_text("{}\n")
    (tmp_path / "notes.txt").write_text("mine")
    claim_folder(tmp_path, evaluation(source="policy-b"), RESULTS, force=True)
    assert not (tmp_path / "runs.jsonl").exists() and (tmp_path / "notes.txt").read_text() == "mine"
    claim_folder(tmp_path, evaluation(source="policy-b"), RESULTS)  # now it is policy-b's


def test_results_without_a_record_are_not_adopted(tmp_path):
    (tmp_path / "runs.jsonl").write_text("{}\n")
    with pytest.raises(InputError, match="no record of what produced it"):
        claim_folder(tmp_path, evaluation(), RESULTS)


def test_the_version_is_part_of_the_fingerprint():
    older = Provenance("scaling evaluation", "p", "gripper", {}, version="0.0.1")
    assert older.fingerprint != Provenance("scaling evaluation", "p", "gripper", {}).fingerprint
    assert Provenance.from_json(older.to_json()) == older


def test_path_hash_follows_content_not_names_of_the_folder(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        folder.mkdir()
        (folder / "model.pt").write_bytes(b"weights")
        (folder / ".model.pt.tmp").write_bytes(b"half written")  # hidden: left out
    assert path_hash(one) == path_hash(two)
    (two / "model.pt").write_bytes(b"other weights")
    assert path_hash(one) != path_hash(two)
    assert content_hash("ab", "c") != content_hash("a", "bc")


def test_a_models_hash_leaves_out_the_records_of_its_training(tmp_path):
    # two runs of one seeded training write the same weights and differ in their records' seconds
    one, two = tmp_path / "one", tmp_path / "two"
    for folder, seconds in ((one, 1.5), (two, 2.5)):
        folder.mkdir()
        (folder / "model.pt").write_bytes(b"weights")
        for record in ("learned.json", "training.json"):
            (folder / record).write_text(f'{{"seconds": {seconds}}}')
    assert model_hash(one) == model_hash(two) and path_hash(one) != path_hash(two)
    (two / "model.pt").write_bytes(b"other weights")
    assert model_hash(one) != model_hash(two)
    assert model_hash(one / "model.pt") == path_hash(one / "model.pt")  # a policy file: its content


def test_written_files_keep_the_users_umask(tmp_path):
    previous = os.umask(0o022)
    try:
        write_text_atomically(tmp_path / "table.md", "x\n")
        assert (tmp_path / "table.md").stat().st_mode & 0o777 == 0o644
        os.umask(0o077)
        write_text_atomically(tmp_path / "private.md", "x\n")
        assert (tmp_path / "private.md").stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(previous)


cells = st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\x00"), max_size=12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(cells, min_size=3, max_size=3), min_size=1, max_size=5))
def test_csv_cells_with_commas_quotes_and_newlines_round_trip(tmp_path_factory, rows):
    path = tmp_path_factory.mktemp("csv") / "cells.csv"
    write_csv_atomically(path, [["domain", "status", "note"], *rows])
    with path.open(newline="") as file:
        assert list(csv.reader(file)) == [["domain", "status", "note"], *rows]


def test_claim_records_the_provenance(tmp_path):
    claim_folder(tmp_path / "new", evaluation(), RESULTS)
    assert (tmp_path / "new" / PROVENANCE).is_file()
