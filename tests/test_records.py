"""Run logs: records appended one by one and read back typed, a line cut by an interrupt skipped."""

from __future__ import annotations

from stratpol.evaluation.scaling import RunRecord, read_runs
from stratpol.records import append_record, read_records


def test_records_round_trip_and_a_cut_line_is_skipped(tmp_path):
    log = tmp_path / "runs.jsonl"
    first, second = RunRecord(5, 0, True, 11, 0.25, None), RunRecord(5, 1, False, None, 0.5, "step bound")
    append_record(log, first)
    append_record(log, second)
    with log.open("a") as file:
        file.write('{"size": 5, "index": 2, "sol')  # killed while writing
    assert read_records(log, RunRecord) == [first, second] == read_runs(tmp_path)
    third = RunRecord(5, 2, True, 13, 0.3, None)  # the resumed run appends after the cut line
    append_record(log, third)
    assert read_runs(tmp_path) == [first, second, third]
    assert read_records(tmp_path / "none.jsonl", RunRecord) == []
