"""The `stratpol` command as a user runs it: output, exit codes, one-line errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from stratpol.planning import Domain
from stratpol.planning.plans import read_plan, validate_plan

ROOT = Path(__file__).resolve().parents[1]
GRIPPER = ROOT / "domains" / "gripper"


def stratpol(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "stratpol.cli", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("planner", ["siw", "gbfs", "lama-first"])
def test_plan_prints_a_valid_plan_and_writes_it(planner, tmp_path):
    out = tmp_path / "plan.ipc"
    run = stratpol("plan", GRIPPER / "domain.pddl", GRIPPER / "instances" / "gripper-4.pddl",
                   "--planner", planner, "--out", out)
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # nothing from the C++ libraries reaches the terminal
    assert "Plan valid" in run.stdout.splitlines()[-1]
    instance = Domain(GRIPPER / "domain.pddl").load_instance(GRIPPER / "instances" / "gripper-4.pddl")
    assert validate_plan(instance, read_plan(out)).valid


def test_validate_says_why_a_plan_is_invalid(tmp_path):
    plan = tmp_path / "bad.plan"
    plan.write_text("(pick ball1 rooma left)\n(drop ball1 roomb left)\n")
    run = stratpol("validate", GRIPPER / "domain.pddl", GRIPPER / "instances" / "gripper-2.pddl", plan)
    assert run.returncode == 1
    assert run.stdout.strip() == f"{plan}: invalid: step 2: precondition of (drop ball1 roomb left) does not hold"


@pytest.mark.parametrize("args, message", [
    (["plan", GRIPPER / "domain.pddl", "missing.pddl"], "missing.pddl: problem file not found"),
    (["plan", GRIPPER / "domain.pddl", GRIPPER / "domain.pddl"], "domain.pddl: PDDL error (line 2)"),
    (["plan", GRIPPER / "domain.pddl", GRIPPER / "instances" / "gripper-2.pddl", "--planner", "nope"],
     "unknown planner 'nope'"),
    (["plan", GRIPPER / "domain.pddl"], "the following arguments are required: problem"),
    (["validate", GRIPPER / "domain.pddl", GRIPPER / "instances" / "gripper-2.pddl", "none.plan"],
     "none.plan: plan file not found"),
])
def test_user_mistakes_are_one_line_and_exit_2(args, message):
    run = stratpol(*args)
    assert run.returncode == 2
    assert len(run.stderr.splitlines()) == 1 and message in run.stderr and "Traceback" not in run.stderr
    assert run.stdout == ""


def test_domains_lists_size_models():
    run = stratpol("domains")
    assert run.returncode == 0
    lines = run.stdout.splitlines()
    gripper = next(line for line in lines if line.startswith("gripper "))
    assert gripper.split()[1] == "5" and gripper.endswith("n = balls + 4")


def test_generate_writes_exact_sizes_and_reproduces(tmp_path):
    first = stratpol("generate", "blocksworld", "--size", "4:5", "--count", "2", "--seed", "3", "--out", tmp_path / "a")
    again = stratpol("generate", "blocksworld", "--size", "4:5", "--count", "2", "--seed", "3", "--out", tmp_path / "b")
    assert first.returncode == again.returncode == 0
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["blocksworld-n004-01.pddl", "blocksworld-n004-02.pddl",
                     "blocksworld-n005-01.pddl", "blocksworld-n005-02.pddl"]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    domain = Domain(ROOT / "domains" / "blocksworld" / "domain.pddl")
    assert len(domain.load_instance(tmp_path / "a" / "blocksworld-n005-02.pddl").objects) == 5


def test_generate_impossible_size_is_one_line(tmp_path):
    run = stratpol("generate", "gripper", "--size", "3", "--out", tmp_path)
    assert run.returncode == 2 and run.stderr.strip() == (
        "stratpol: error: domain gripper has no instance of size 3 (n = balls + 4)")
    assert not any(tmp_path.iterdir())


def test_verify_reports_each_instance(tmp_path):
    policy = ROOT / "tests" / "data" / "golden" / "gripper.policy"
    run = stratpol("verify", policy, "--domain", "gripper", GRIPPER / "instances" / "gripper-2.pddl",
                   GRIPPER / "instances" / "gripper-4.pddl")
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["gripper-2: solved (26 policy-reachable states)",
                                       "gripper-4: solved (254 policy-reachable states)", "2/2 instances solved"]
    broken = tmp_path / "broken.policy"
    broken.write_text("boolean H\n{H} -> {H up}\n")
    run = stratpol("verify", broken, "--domain", "gripper", GRIPPER / "instances" / "gripper-2.pddl")
    assert run.returncode == 2 and "broken.policy: line 2:" in run.stderr and len(run.stderr.splitlines()) == 1


def test_check_prints_the_certificate_and_sieve(tmp_path):
    good = stratpol("check", ROOT / "tests" / "data" / "golden" / "gripper.policy")
    assert good.returncode == 0
    assert "1-stratified; ranks" in good.stdout and "SIEVE: terminating" in good.stdout
    bad = tmp_path / "bad.policy"
    bad.write_text("numerical H\nnumerical n\n\n{H = 0, n > 0} -> {H up, n down}\n{H > 0} -> {H down, n?}\n")
    run = stratpol("check", bad)
    assert run.returncode == 1
    assert "not 1-stratified" in run.stdout and "SIEVE: not terminating" in run.stdout


def test_learn_gripper_prints_a_certified_policy(tmp_path):
    out = tmp_path / "gripper.policy"
    run = subprocess.run([sys.executable, "-m", "stratpol.cli", "learn", "gripper", "--out", str(out)],
                         capture_output=True, text=True, timeout=600,
                         env={**__import__("os").environ, "STRATPOL_CACHE": str(tmp_path / "cache")})
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("# stratpol policy")
    assert "# termination: 1-stratified" in run.stdout
    assert out.is_file() and out.with_suffix(".policy.dlplan").read_text().startswith("(:policy")
    check = stratpol("verify", out, "--domain", "gripper", GRIPPER / "instances" / "gripper-6.pddl")
    assert check.returncode == 0


@pytest.mark.skipif(not (ROOT.parent / "shared" / "benchmarks" / "gp2024").is_dir(), reason="no ../shared/benchmarks")
def test_learn_on_the_published_training_set_reproduces_its_table_1_row(tmp_path):
    # the domain file comes from the training set's folder, the settings from learning_settings.toml
    easy = ROOT.parent / "shared" / "benchmarks" / "gp2024" / "gripper" / "training" / "easy"
    run = subprocess.run([sys.executable, "-m", "stratpol.cli", "learn", "gripper", "--instances", str(easy)],
                         capture_output=True, text=True, timeout=600,
                         env={**__import__("os").environ, "STRATPOL_CACHE": str(tmp_path / "cache")})
    assert run.returncode == 0, run.stderr
    assert "teacher lapkt-siw+bfws, strategy S1" in run.stderr
    # the paper's row: |Q| 5, |S| 60, |F| 6,154, S1, 1/1, |X+| 19, |X-| 0, |H| 38, |G| 3, |r| 4
    assert "# 5 instances, 60 states, pool 6,154 features (complete, 60 states" in run.stdout
    assert "strategy S1, 1 outer / 1 inner iterations" in run.stdout
    assert "|X+| = 19, |X-| = 0, |H| = 38" in run.stdout
    policy = run.stdout.split("\n\n")[1]
    features = [line for line in run.stdout.splitlines() if line.startswith(("numerical ", "boolean "))]
    assert policy.count(" -> ") == 4 and len(features) == 3


@pytest.mark.parametrize("args", [
    ["generate", "gripper", "--size", "6", "--count", "0", "--out", "x"],
    ["evaluate", "--planner", "gbfs", "--domain", "gripper", "--jobs", "0", "--out", "x"],
    ["check", "x.policy", "--k", "0"],
])
def test_counts_must_be_positive(args):
    run = stratpol(*args)
    assert run.returncode == 2 and "must be at least 1" in run.stderr and len(run.stderr.splitlines()) == 1


def test_bench_testing_runs_saved_policies_as_sketches_beside_table_3(tmp_path):
    from stratpol.generation import domain_folder
    from stratpol.policy import Change, Feature, Kind, Policy, Rule
    from stratpol.policy.text import format_policy

    benchmarks, policies = tmp_path / "benchmarks", tmp_path / "policies"
    (benchmarks / "gripper" / "testing").mkdir(parents=True)
    policies.mkdir()
    (benchmarks / "gripper" / "domain.pddl").write_text((GRIPPER / "domain.pddl").read_text())
    generator = domain_folder("gripper").generator
    for balls in (2, 3):
        (benchmarks / "gripper" / "testing" / f"p{balls}.pddl").write_text(generator(balls=balls))
    (policies / "gripper.policy").write_text((ROOT / "tests/data/golden/gripper.policy").read_text())
    # "deliver a ball": never one action away, so only IW(k) searches carry it to the goal
    delivered = Feature("g", Kind.NUMERICAL, "n_count(c_equal(r_primitive(at,0,1),r_primitive(at_g,0,1)))")
    (policies / "gripper-deliver.policy").write_text(
        format_policy(Policy.of([delivered], [Rule.of({}, {"g": Change.UP})])))
    run = stratpol("bench", "testing", "--benchmarks", benchmarks, "--policies", policies)
    assert run.returncode == 0, run.stderr
    rows = [line.split() for line in run.stdout.splitlines()[1:]]
    paper = ["paper", "30", "100%", "0", "0.00"]  # Table 3 (the paper ran its policies as sketches)
    assert rows[0][:4] == ["gripper-deliver", "2", "0/2", "2/2"] and rows[0][4] in ("1", "2")
    assert " ".join(rows[0][7:]) == "(the policy alone: no successor 2)"
    assert rows[1] == paper
    assert rows[2][:6] == ["gripper", "2", "2/2", "2/2", "0", "0.00"] and rows[3] == paper


def test_bench_execution_profiles_a_policy_on_generated_and_test_instances(tmp_path):
    from stratpol.generation import domain_folder

    benchmarks, policies = tmp_path / "benchmarks", tmp_path / "policies"
    (benchmarks / "ferry" / "testing").mkdir(parents=True)
    policies.mkdir()
    (benchmarks / "ferry" / "domain.pddl").write_text((ROOT / "domains" / "ferry" / "domain.pddl").read_text())
    folder = domain_folder("ferry")
    for cars in (2, 6):  # the larger file is the one profiled
        (benchmarks / "ferry" / "testing" / f"p{cars}.pddl").write_text(folder.generator(locations=3, cars=cars, seed=1))
    (policies / "ferry.policy").write_text((ROOT / "experiments/results/policies/gp2024/ferry.policy").read_text())
    run = stratpol("bench", "execution", "--benchmarks", benchmarks, "--policies", policies, "--sizes", 10, 30)
    assert run.returncode == 0, run.stderr
    rows = [line.split() for line in run.stdout.splitlines()[1:]]
    assert [row[:3] for row in rows] == [["ferry", "ferry-10", "10"], ["ferry", "ferry-30", "30"],
                                         ["ferry", "p6.pddl", "9"]]
    assert all(row[4] == "solved" and int(row[3]) > 0 for row in rows)
