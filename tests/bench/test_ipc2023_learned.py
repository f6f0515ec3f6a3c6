"""The IPC table of the policies learned end to end: made from the learning records `stratpol learn
--out` writes beside each policy, with the coverage of its bench runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import stratpol
from stratpol.bench.ipc2023.learned import learned_rows, learning_records, render_learned
from stratpol.bench.ipc2023.runs import Problem, ProblemRecord
from stratpol.errors import InputError
from stratpol.generation import domain_folder


def _benchmarks(root: Path) -> Path:
    """An IPC-shaped folder: gripper's domain, its training files, two easy test problems."""
    folder = root / "gripper"
    generator = domain_folder("gripper").generator
    (folder / "testing" / "easy").mkdir(parents=True)
    (folder / "training").mkdir()
    for balls in (2, 3):
        (folder / "testing" / "easy" / f"p{balls:02}.pddl").write_text(generator(balls=balls))
    for balls in (2, 4, 6):
        (folder / "training" / f"p{balls:02}.pddl").write_text(generator(balls=balls))
    (folder / "domain.pddl").write_text(domain_folder("gripper").domain.path.read_text())
    return root


def test_bench_ipc2023_tables_a_learned_policy_from_its_learning_record(tmp_path):
    benchmarks = _benchmarks(tmp_path / "benchmarks")
    policies = tmp_path / "policies"
    learned = stratpol("learn", benchmarks / "gripper" / "domain.pddl", "--instances", benchmarks / "gripper" /
                       "training", "--out", policies / "gripper.policy", cache=tmp_path / "cache")
    assert learned.returncode == 0, learned.stderr
    out = tmp_path / "out"
    run = stratpol("bench", "ipc2023", "--benchmarks", benchmarks, "--domains", "gripper", "--levels", "easy",
                   "--methods", "rules", "--policies", policies, "--time-limit", "60", "--out", out)
    assert run.returncode == 0, run.stderr
    row = next(line for line in (out / "learned.md").read_text().splitlines() if line.startswith("| gripper"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    # learned, by the portfolio's first entry; 3 files verified; 2 of 2 easy problems solved; no
    # hand-assisted policy of gripper, and no best reported (not an IPC domain)
    assert cells[:5] == ["gripper", "yes", "paper", "3 / 0 / 0", "3 / 4"]
    assert cells[6:] == ["2 / - / - = **2**", "-", ""]
    assert row in run.stdout and "learned.md" in run.stdout.splitlines()[-1]


def test_a_domain_not_learned_says_why_and_one_not_tried_says_not_yet():
    problems = [Problem("ferry", "easy", Path("p01.pddl")), Problem("spanner", "easy", Path("p01.pddl"))]
    failed = {"learned": False, "command": "stratpol learn spanner", "failure": "no portfolio entry learned a policy "
              "(...)", "files": {"left_out": {}},
              "attempts": [{"settings": "paper", "outcome": "GENEX: no eligible feature hits 1 Deadend "
                            "requirement(s) (a state of p89.pddl)", "seconds": 10.0}],
              "seconds": {"plans": 30.0, "pool": 200.0}, "total_seconds": 240.0}
    hand = [ProblemRecord("rules", "spanner", "easy", "p01.pddl", "solved", 10, 0.1, 50.0, "policy x, 60 s")]
    text = render_learned(learned_rows({"spanner": failed}, [], hand, problems))
    lines = text.splitlines()
    assert lines[2].startswith("| ferry | not yet |") and lines[2].endswith("| - | - | 77 |")
    assert lines[3].startswith("| spanner | no: paper: GENEX: no eligible feature hits 1 Deadend requirement(s) |")
    assert "| 240 s (30, 200, 0, 0) | - | 1 / - / - = **1** | 73 |" in lines[3]
    assert lines[4] == "| all | 0 of 2 | | | | | **0** of 2 | 1 | 150 |"
    # below the table, each entry's reason in full
    assert lines[5:] == ["", "Tried and not learned, with each portfolio entry's reason in full:", "",
                         "- spanner: `stratpol learn spanner`, 240 s",
                         "  - paper: GENEX: no eligible feature hits 1 Deadend requirement(s) (a state of p89.pddl)"]


@pytest.mark.parametrize("text, problem", [
    ("[1, 2]", "no \"learned\": true or false"),
    ('{"learned": true, "command": "stratpol learn x"}', "no settings, attempts, files, policy, seconds"),
    ("{", "Expecting property name"),
])
def test_a_learning_record_that_does_not_read_is_one_line_naming_it(tmp_path, text, problem):
    (tmp_path / "ferry.learned.json").write_text(text)
    with pytest.raises(InputError, match=re.escape(problem)) as error:
        learning_records(tmp_path)
    assert str(error.value).startswith(f"{tmp_path / 'ferry.learned.json'}: not a learning record: ")
