"""The portfolio: one configuration for every domain without an entry, its entries tried in turn
until one learns, and the choice reported in the result, the output and the learning record."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import stratpol
from stratpol.learner import learn, learning_task
from stratpol.learning.result import LearningFailure
from stratpol.features import load_grammar
from stratpol.learning.settings import LearningSettings, NamedSettings, learning_configuration, learning_settings

# a first entry that cannot verify gripper's training files (5 states, no runs), then the paper's
SETTINGS = """
[default]
verify_states = 300

[portfolio]
sets = ["ipc2023"]
paper_sets = ["gp2024"]

[[portfolio.entries]]
name = "too-few-states"
verify_states = 5
verify_runs = 0

[[portfolio.entries]]
name = "paper"

[domains.spanner]
teacher = "bfws"
"""


@pytest.fixture
def settings_file(tmp_path):
    path = tmp_path / "settings.toml"
    path.write_text(SETTINGS)
    return path


def test_a_domain_without_an_entry_gets_the_portfolio_and_one_with_an_entry_gets_it_alone(settings_file):
    entries = learning_configuration("gripper", settings_file)
    assert [e.name for e in entries] == ["too-few-states", "paper"]
    assert entries[0].settings == LearningSettings(verify_states=5, verify_runs=0)
    assert entries[1].settings == LearningSettings(verify_states=300)  # over [default]
    assert learning_configuration("gp2024/spanner", settings_file) == (
        NamedSettings("domains.spanner", LearningSettings(teacher="bfws", verify_states=300)),)
    # a domain of a portfolio set takes the portfolio, whatever entry its bare name has
    assert [e.name for e in learning_configuration("ipc2023/spanner", settings_file)] == ["too-few-states", "paper"]
    assert learning_settings("ipc2023/spanner", settings_file) == LearningSettings(verify_states=300)
    # a domain of the paper's sets without an entry takes the paper's defaults alone
    assert learning_configuration("gp2024/gripper", settings_file) == (
        NamedSettings("default", LearningSettings(verify_states=300)),)


def test_a_registry_name_with_problem_files_is_named_by_the_domain_file_beside_them():
    from stratpol.learner import learning_domain
    problems = Path(__file__).resolve().parents[3] / "shared" / "benchmarks" / "gp2024" / "gripper" / "training" / "easy"
    if not problems.is_dir():
        pytest.skip("no ../shared/benchmarks")
    domain, name = learning_domain("gripper", [problems])
    assert name == "gp2024/gripper" and domain.path.resolve() == (problems.parents[1] / "domain.pddl").resolve()
    assert learning_domain("gripper")[1] == "gripper"  # generated instances: the registry name


def test_the_bundled_portfolio_is_the_same_for_every_ipc_domain():
    names = {name: learning_configuration(f"ipc2023/{name}") for name in ("ferry", "spanner", "satellite", "rovers")}
    assert len(set(names.values())) == 1
    entries = names["spanner"]
    assert entries[0] == NamedSettings("paper", LearningSettings(incremental_pool=True))
    # pools that scale with Q', but for the small pool of grammar distances (generated features only)
    assert all(e.settings.incremental_pool for e in entries if e.settings.grammar == "default")
    assert len(entries) > 1 and {e.settings.grammar for e in entries} == {"default", "distances"}
    assert all(not load_grammar(e.settings.grammar).features for e in entries)  # no feature written by hand


def test_the_portfolio_reports_the_entry_that_learned_and_why_the_ones_before_failed(settings_file):
    result = learn(learning_task("gripper", settings=None, settings_file=settings_file))
    assert result.settings.name == "paper"
    assert [(a.settings, a.outcome) for a in result.attempts] == [
        ("too-few-states", "gripper-6: verification passed 5 policy-reachable states (--verify-states)"),
        ("paper", "learned")]
    assert result.to_json()["settings"]["name"] == "paper"
    assert len(result.policy.rules) == 4 and result.certificate.k == 1


def test_one_settings_given_is_the_only_entry_tried():
    with pytest.raises(LearningFailure, match=re.escape("gripper-6: verification passed 5 policy-reachable states")) \
            as failure:
        learn("gripper", settings=LearningSettings(verify_states=5, verify_runs=0))
    # its one attempt is kept, so that its record has the run's seconds
    assert [a.settings for a in failure.value.attempts] == ["given"] and failure.value.attempts[0].phases["pool"] > 0


def test_stratpol_learn_names_the_entry_and_saves_the_learning_record(settings_file, tmp_path):
    out = tmp_path / "gripper.policy"
    run = stratpol("learn", "gripper", "--settings", settings_file, "--out", out)
    assert run.returncode == 0, run.stderr
    assert "# gripper: the portfolio, 2 entries in turn (too-few-states, paper)" in run.stderr
    lines = run.stdout.splitlines()
    chosen = next(line for line in lines if line.startswith("# learned with the settings"))
    assert chosen.startswith("# learned with the settings paper (grammar default, teacher lapkt-siw+bfws, ")
    assert "; too-few-states failed after " in chosen
    assert lines[-1] == ("# verified on 4 training instances and tested by 50 runs on 2 with too many states to "
                         "verify (gripper-6, gripper-5)")

    record = json.loads((tmp_path / "gripper.learned.json").read_text())
    assert record["command"] == f"stratpol learn gripper --settings {settings_file} --out {out}"
    assert record["settings"]["name"] == "paper" and record["settings"]["values"]["verify_states"] == 300
    assert [a["settings"] for a in record["attempts"]] == ["too-few-states", "paper"]
    assert record["grammar"] == {"name": "default", "complexity_limit": 15, "listed_features": 0}
    assert len(record["files"]["verified"]) == 4
    assert record["files"]["tested_by_runs"] == {"gripper-6": 50, "gripper-5": 50}
    assert record["files"]["left_out"] == {} and record["undecided_states"] == 0 and record["synthesised_features"] == []
    assert record["policy"]["rules"] == 4 and record["policy"]["termination"].startswith("1-stratified")
    assert record["policy"]["sieve"] == "terminating"
    assert {"plans", "pool", "genex", "verification"} <= set(record["seconds"])
    head = out.read_text().splitlines()[0]
    assert head.startswith(f"# learned by `{record['command']}` with the settings paper: 4 training files verified, 2 tested by 50 runs; ")
    assert stratpol("check", out).returncode == 0  # the head line is a comment to the policy reader
