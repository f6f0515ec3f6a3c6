"""The `stratpol` command as a user runs it: output, exit codes, one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import stratpol

from stratpol import __version__
from stratpol.planning import Domain
from stratpol.planning.plans import read_plan, validate_plan
from stratpol.provenance import path_hash

ROOT = Path(__file__).resolve().parents[1]
GRIPPER = ROOT / "domains" / "gripper"


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
    (["learn", "gripper", "--grow-by", "3"], "--grow-by: more than one failing instance joins Q' with strategy grow "
     "only, not S1"),
    (["learn", "gripper", "--verify-states", "0"], "argument --verify-states: must be at least 1, not 0"),
    (["learn", "gripper", "--teacher-time-limit", "0"], "argument --teacher-time-limit: must be positive, not 0"),
    (["learn", "gripper", "--ranking", "best"], "argument --ranking: invalid choice: 'best'"),
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
    assert run.stdout.splitlines() == ["gripper-2.pddl: solved (26 policy-reachable states)",
                                       "gripper-4.pddl: solved (254 policy-reachable states)", "2/2 instances solved"]
    # balls and grippers are interchangeable: one state per renaming
    renamed = stratpol("verify", policy, "--domain", "gripper", GRIPPER / "instances" / "gripper-4.pddl", "--symmetry")
    assert renamed.returncode == 0, renamed.stderr
    assert renamed.stdout.splitlines()[0] == "gripper-4.pddl: solved (22 policy-reachable states up to renaming)"
    # files verified two at a time: the same verdicts in the same order
    files = [GRIPPER / "instances" / f"gripper-{n}.pddl" for n in (6, 2, 4)]
    one, two = (stratpol("verify", policy, "--domain", "gripper", *files, "--json", "--jobs", jobs) for jobs in "12")
    assert one.returncode == two.returncode == 0 and one.stdout == two.stdout
    assert [v["instance"] for v in json.loads(two.stdout)["verifications"]] == [
        "gripper-6.pddl", "gripper-2.pddl", "gripper-4.pddl"]
    # a file that is a renaming of an earlier one gets its verdict, with one job or two
    copy = tmp_path / "copy.pddl"
    copy.write_text((GRIPPER / "instances" / "gripper-2.pddl").read_text().replace("ball1", "orb"))
    for jobs in "12":
        distinct = stratpol("verify", policy, "--domain", "gripper", files[1], copy, files[2], "--distinct-instances",
                            "--jobs", jobs)
        assert distinct.returncode == 0, distinct.stderr
        assert distinct.stdout.splitlines() == [
            "gripper-2.pddl: solved (26 policy-reachable states)",
            "copy.pddl: solved, as gripper-2.pddl (a renaming of it)",
            "gripper-4.pddl: solved (254 policy-reachable states)", "3/3 instances solved"]
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
    # 17 features, each lowered by a rule of its own: certified, but the policy graph would have
    # 2^17 nodes, which SIEVE does not build
    wide = tmp_path / "wide.policy"
    wide.write_text("".join(f"numerical n{i}\n" for i in range(17)) + "\n" +
                    "".join(f"{{n{i} > 0}} -> {{n{i} down}}\n" for i in range(17)))
    run = stratpol("check", wide)
    assert run.returncode == 0 and "1-stratified" in run.stdout
    assert "SIEVE: not run (SIEVE needs 2^17 nodes; at most 16 features are allowed)" in run.stdout


def test_learn_gripper_prints_a_certified_policy(tmp_path):
    out = tmp_path / "gripper.policy"
    run = stratpol("learn", "gripper", "--out", out, cache=tmp_path / "cache")
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
    run = stratpol("learn", "gripper", "--instances", easy, cache=tmp_path / "cache")
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


def test_learning_options_that_do_not_go_together_are_one_line_named_as_options():
    run = stratpol("learn", "gripper", "--grow-by", "3", "--strategy", "S1")
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1
    assert "--grow-by: more than one failing instance joins Q' with strategy grow only, not S1" in run.stderr


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


GOLDEN_GRIPPER = ROOT / "tests" / "data" / "golden" / "gripper.policy"


def test_an_evaluation_folder_is_never_resumed_by_another_policy(tmp_path):
    broken = tmp_path / "broken.policy"  # one rule that moves no ball: solves nothing
    broken.write_text(GOLDEN_GRIPPER.read_text().split("\n\n")[0] + "\n\n{m > 0} -> {m down}\n")
    out = tmp_path / "evaluation"
    settings = ["--domain", "gripper", "--max-size", "7", "--epsilon", "0.3", "--plan-length-bound", "20"]
    good = stratpol("evaluate", GOLDEN_GRIPPER, *settings, "--out", out)
    assert good.returncode == 0, good.stderr
    assert "Scale 7" in good.stdout
    recorded = json.loads((out / "scaling.json").read_text())["provenance"]
    assert recorded["settings"]["epsilon"] == 0.3 and recorded["settings"]["kappa"] == 0.1
    assert recorded["settings"]["seed"] == 0 and recorded["settings"]["plan_length_bound"] == 20
    assert recorded["version"] == __version__ and recorded["source"] == path_hash(GOLDEN_GRIPPER)
    runs = (out / "runs.jsonl").read_text()

    refused = stratpol("evaluate", broken, *settings, "--out", out)
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    assert "holds the results of another scaling evaluation" in refused.stderr and "--force" in refused.stderr
    assert (out / "runs.jsonl").read_text() == runs  # untouched
    other_settings = stratpol("evaluate", GOLDEN_GRIPPER, *settings, "--kappa", "0.2", "--out", out)
    assert other_settings.returncode == 2 and "kappa 0.2 (the folder's: 0.1)" in other_settings.stderr
    other_choices = stratpol("evaluate", GOLDEN_GRIPPER, *settings, "--tie-break", "rule-order", "--out", out)
    assert other_choices.returncode == 2 and "rule-order tie-break" in other_choices.stderr  # other runs
    planner = stratpol("evaluate", "--planner", "lama-first", *settings, "--tie-break", "first", "--out", out)
    assert planner.returncode == 2 and "--tie-break is a rule policy's choice" in planner.stderr

    forced = stratpol("evaluate", broken, *settings, "--force", "--out", out)
    assert forced.returncode == 0, forced.stderr
    assert "Scale 0, SumCov 0.00" in forced.stdout
    assert json.loads((out / "scaling.json").read_text())["provenance"]["source"] == path_hash(broken)


@pytest.mark.parametrize("option, value, message", [
    ("--epsilon", "-1", "argument --epsilon: must be in (0, 1), not -1"),
    ("--kappa", "2", "argument --kappa: must be in (0, 1), not 2"),
    ("--tau", "1.5", "argument --tau: must be in [0, 1], not 1.5"),
    ("--seconds-per-size", "0", "argument --seconds-per-size: must be positive, not 0"),
    ("--max-size", "0", "argument --max-size: must be at least 1, not 0"),
    # each valid alone, but they shape a time budget: without one they would change nothing
    ("--budget-clock", "cpu", "--budget-clock: 'cpu' needs a time budget (--seconds-per-size)"),
    ("--min-runs-per-size", "5", "--min-runs-per-size: needs a time budget (--seconds-per-size)"),
])
def test_protocol_settings_refused_are_one_line_and_exit_2(option, value, message, tmp_path):
    run = stratpol("evaluate", GOLDEN_GRIPPER, "--domain", "gripper", option, value, "--out", tmp_path / "e")
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1 and message in run.stderr
    assert not (tmp_path / "e").exists()


def test_budget_options_run_with_a_budget(tmp_path):
    """The two options refused above without --seconds-per-size are taken with it."""
    run = stratpol("evaluate", GOLDEN_GRIPPER, "--domain", "gripper", "--budget-clock", "cpu", "--min-runs-per-size",
                   "5", "--seconds-per-size", "1", "--max-size", "3", "--out", tmp_path / "e")
    assert run.returncode == 0, run.stderr


def test_version():
    run = stratpol("--version")
    assert run.returncode == 0 and run.stdout.strip() == f"stratpol {__version__}"


def test_plan_exit_codes_tell_outcomes_apart(tmp_path):
    domain, problem = GRIPPER / "domain.pddl", GRIPPER / "instances" / "gripper-4.pddl"
    unsolvable = tmp_path / "unsolvable.pddl"  # the ball must be in a room that does not exist for it
    unsolvable.write_text(problem.read_text().replace("(:goal (and", "(:goal (and (at ball1 rooma) (at ball1 roomb)"))
    outcomes = {
        "solved": stratpol("plan", domain, problem, "--json"),
        "unsolvable": stratpol("plan", domain, unsolvable, "--planner", "astar-blind", "--json"),
        "limit reached": stratpol("plan", domain, GRIPPER / "instances" / "gripper-10.pddl", "--planner",
                                  "astar-blind", "--time-limit", "0.001", "--json"),
    }
    for outcome, run in outcomes.items():
        result = json.loads(run.stdout)
        assert result["outcome"] == outcome and run.returncode == result["exit_code"], run.stderr
    assert [run.returncode for run in outcomes.values()] == [0, 11, 23]
    solved = json.loads(outcomes["solved"].stdout)
    assert solved["valid"] and len(solved["plan"]) == solved["cost"] and solved["plan"][0].startswith("(")


def test_learn_verify_and_status_print_json(tmp_path):
    out = tmp_path / "gripper.policy"
    learned = stratpol("learn", "gripper", "--json", "--out", out)
    assert learned.returncode == 0, learned.stderr
    result = json.loads(learned.stdout)
    assert result["domain"] == "gripper" and result["termination"].startswith("1-stratified")
    assert len(result["rules"]) == result["policy"].count(" -> ") and result["statistics"]["outer_iterations"] >= 1
    assert all(v["solved"] for v in result["verifications"])
    verified = stratpol("verify", out, "--domain", "gripper", GRIPPER / "instances" / "gripper-4.pddl", "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout)["solved"] == 1
    grid = tmp_path / "grid.toml"
    grid.write_text('domains = ["gripper", "ferry"]\nmethods = ["rules", "lama-first"]\nseeds = [0, 1]\n')
    status = stratpol("experiment", grid, "--out", tmp_path / "grid", "--status", "--json")
    assert status.returncode == 0, status.stderr
    cells = json.loads(status.stdout)["cells"]
    assert [c["cell"] for c in cells] == ["gripper.rules.s0", "gripper.rules.s1", "gripper.lama-first.s0",
                                          "ferry.rules.s0", "ferry.rules.s1", "ferry.lama-first.s0"]
    assert {c["state"] for c in cells} == {"to run"}


def test_a_failed_run_prints_the_steps_it_took_as_comments(tmp_path):
    """Without the rule that takes Robby back to the balls, the policy stops once its hands are empty
    in the goal room: the run shows the steps that led there, and nothing a plan reader would take."""
    rules = GOLDEN_GRIPPER.read_text().splitlines(keepends=True)
    stuck = tmp_path / "stuck.policy"
    stuck.write_text("".join(line for line in rules if not line.startswith("{not A, m = 0}")))
    run = stratpol("run", stuck, "--domain", "gripper", GRIPPER / "instances" / "gripper-4.pddl", "--tie-break", "first")
    assert run.returncode == 1
    assert run.stdout.splitlines() == [
        "; (pick ball1 rooma left)", "; (move rooma roomb)", "; (drop ball1 roomb left)",
        "; gripper-4: not solved (no successor after 3 steps; 1 of 4 goal literals met, first at step 3)"]


def test_explain_shows_why_no_rule_takes_a_successor(tmp_path):
    """With --explain, the stuck state's features and each action's changes: going back for the
    balls makes A true, which only the removed rule allowed."""
    rules = GOLDEN_GRIPPER.read_text().splitlines(keepends=True)
    stuck = tmp_path / "stuck.policy"
    stuck.write_text("".join(line for line in rules if not line.startswith("{not A, m = 0}")))
    run = stratpol("run", stuck, "--domain", "gripper", GRIPPER / "instances" / "gripper-4.pddl", "--tie-break", "first",
                   "--explain")
    assert run.returncode == 1
    assert run.stdout.splitlines()[4:] == [
        "; features: A=false m=0 n=3",
        "; (move roomb rooma): A false->true (no rule)",
        "; (move roomb roomb): no feature changes (no rule)",
        "; (pick ball1 roomb left): m 0->1 (no rule)",
        "; (pick ball1 roomb right): m 0->1 (no rule)"]
    bounded = stratpol("run", GOLDEN_GRIPPER, "--domain", "gripper", GRIPPER / "instances" / "gripper-4.pddl",
                       "--tie-break", "first", "--explain", "--step-bound", "2")
    assert bounded.returncode == 1 and "; (drop ball1 roomb left): m 1->0 (accepted)" in bounded.stdout.splitlines()


def test_accepts_judges_each_step_of_the_planners_plans(tmp_path):
    """The golden policy accepts every step of astar-lmcut's optimal plans; without the rule that
    takes Robby back to the balls, the step back is named with what it changes, and the exit
    status is 1."""
    instances = [GRIPPER / "instances" / f"gripper-{n}.pddl" for n in (2, 4)]
    golden = stratpol("accepts", GOLDEN_GRIPPER, "--domain", "gripper", *instances, cache=tmp_path / "cache")
    assert golden.returncode == 0, golden.stderr
    assert [line.split(": ")[1] for line in golden.stdout.splitlines()] == [
        "5 of 5 steps accepted", "11 of 11 steps accepted", "16 of 16 steps accepted; 2 of 2 files whole"]
    rules = GOLDEN_GRIPPER.read_text().splitlines(keepends=True)
    stuck = tmp_path / "stuck.policy"
    stuck.write_text("".join(line for line in rules if not line.startswith("{not A, m = 0}")))
    judged = stratpol("accepts", stuck, "--domain", "gripper", *instances, cache=tmp_path / "cache")
    assert judged.returncode == 1
    assert judged.stdout.splitlines()[1:] == [f"{instances[1]}: 10 of 11 steps accepted",
                                              "  step 6 (move roomb rooma): A false->true",
                                              "all: 15 of 16 steps accepted; 1 of 2 files whole"]
    unsolvable = tmp_path / "two-rooms.pddl"  # ball1 in both rooms: no plan, and the file counts as refused
    unsolvable.write_text(instances[0].read_text().replace("(at ball2 roomb)", "(at ball1 rooma)"))
    refused = stratpol("accepts", GOLDEN_GRIPPER, "--domain", "gripper", unsolvable, cache=tmp_path / "cache")
    assert refused.returncode == 1 and refused.stdout == f"{unsolvable}: no plan from astar-lmcut (dead end)\n"


def test_a_policy_names_its_domain_and_is_refused_elsewhere(tmp_path):
    learned = tmp_path / "gripper.policy"
    learned.write_text(GOLDEN_GRIPPER.read_text().replace("# stratpol policy\n", "# stratpol policy\ndomain gripper\n"))
    published = ROOT.parent / "shared" / "benchmarks" / "gp2024" / "gripper"
    renamed = tmp_path / "domain.pddl"  # gripper under another PDDL name: the policy fits its vocabulary
    renamed.write_text((GRIPPER / "domain.pddl").read_text().replace("(domain gripper)", "(domain gripper-typed)"))
    assert stratpol("run", learned, "--domain", renamed, GRIPPER / "instances" / "gripper-2.pddl").returncode == 0
    run = stratpol("run", learned, "--domain", "blocksworld", ROOT / "domains" / "blocksworld" / "instances" /
                   sorted((ROOT / "domains" / "blocksworld" / "instances").glob("*.pddl"))[0].name)
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1
    assert "the policy is for domain gripper, not blocksworld" in run.stderr and "undefined predicate" in run.stderr
    dlplan = tmp_path / "published.dlplan"  # the published domain's constants are not in ours
    dlplan.write_text('(:policy\n(:booleans (b0 "b_empty(c_one_of(rooma))"))\n(:numericals )\n'
                      '(:rule (:conditions (:c_b_pos b0)) (:effects (:e_b_neg b0)))\n)\n')
    for command in (["run", dlplan, "--domain", "gripper", GRIPPER / "instances" / "gripper-2.pddl"],
                    ["check", dlplan, "--domain", "gripper"]):
        refused = stratpol(*command)
        assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1 and refused.stdout == ""
        assert "line 2: undefined constant 'rooma'" in refused.stderr
    if (published / "domain.pddl").is_file():
        checked = stratpol("check", dlplan, "--domain", published / "domain.pddl")
        assert checked.returncode == 0 and checked.stdout.startswith(f"{dlplan}: 1-stratified")
    assert "give --domain" in stratpol("check", dlplan).stderr


def test_learn_takes_problem_files_as_well_as_folders(tmp_path):
    instances = [GRIPPER / "instances" / name for name in ("gripper-2.pddl", "gripper-4.pddl")]
    run = stratpol("learn", "gripper", "--instances", *instances, "--json")
    assert run.returncode == 0, run.stderr
    assert sorted(json.loads(run.stdout)["order"]) == ["gripper-2", "gripper-4"]


def test_a_child_killed_for_memory_is_one_line_not_a_traceback(tmp_path, monkeypatch, capsys):
    from stratpol.processes.limits import ChildDied
    from stratpol.cli import main
    from stratpol.learning import training_pool

    def killed(*args, **kwargs):
        raise ChildDied(-9, "dlplan's feature generation")

    monkeypatch.setenv("STRATPOL_CACHE", str(tmp_path))
    monkeypatch.setattr(training_pool, "generate_pool", killed)
    assert main(["learn", "gripper"]) == 1
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.startswith("stratpol: dlplan's feature generation ended without a result (exit code -9")


def test_learn_says_which_training_instances_runs_tested_instead_of_verification(tmp_path):
    run = stratpol("learn", "gripper", "--verify-states", "300", "--verify-runs", "5", "--json")
    assert run.returncode == 0, run.stderr
    verdicts = {v["instance"]: v["tested_by_runs"] for v in json.loads(run.stdout)["verifications"]}
    assert 5 in verdicts.values() and 0 in verdicts.values()


def test_a_failed_learning_run_shows_its_last_policy_on_stderr_and_saves_no_policy(tmp_path):
    out = tmp_path / "gripper.policy"
    out.write_text("an earlier run's policy")
    run = stratpol("learn", "gripper", "--verify-states", "5", "--verify-runs", "0", "--out", out)
    assert run.returncode == 1 and run.stdout == "" and not out.exists()
    assert (tmp_path / "gripper.policy.earlier").read_text() == "an earlier run's policy"
    record = json.loads((tmp_path / "gripper.learned.json").read_text())  # the record of a run that learned nothing
    assert record["learned"] is False and record["failure"] == run.stderr.splitlines()[-1].removeprefix(
        "stratpol: learning failed: ")
    assert [a["settings"] for a in record["attempts"]] == ["paper", "dead-ends", "grow", "distances", "grow-optimal"]
    lines = run.stderr.splitlines()
    shown = lines.index("# the last policy GENEX found (certified, not verified on all training instances):")
    assert lines[shown + 1] == "# stratpol policy" and any(" -> " in line for line in lines[shown:])
    # gripper has no entry: each entry of the portfolio was tried, and each reason is given
    assert lines[-1].startswith("stratpol: learning failed: no portfolio entry learned a policy (paper: gripper-6: "
                                "verification passed 5 policy-reachable states (--verify-states); dead-ends: ")
    assert "; grow: gripper-2: verification passed 5 policy-reachable states up to renaming" in lines[-1]
    assert "; distances: gripper-2: verification passed 5 policy-reachable states up to renaming" in lines[-1]
    assert lines[-1].endswith("grow-optimal: gripper-2: verification passed 5 policy-reachable states up to "
                              "renaming (--verify-states))")


UNSOLVABLE_GRIPPER = """(define (problem two-rooms-at-once)
  (:domain gripper)
  (:objects rooma roomb - room left right - gripper ball1 - ball)
  (:init (at-robby rooma) (free left) (free right) (at ball1 rooma))
  (:goal (and (at ball1 rooma) (at ball1 roomb))))
"""


def test_an_unsolvable_training_file_is_left_out_with_its_reason(tmp_path):
    training = tmp_path / "training"
    training.mkdir()
    for balls in (2, 4):
        name = f"gripper-{balls}.pddl"
        (training / name).write_text((ROOT / "src/stratpol/domains/gripper/instances" / name).read_text())
    (training / "two-rooms-at-once.pddl").write_text(UNSOLVABLE_GRIPPER)
    run = stratpol("learn", ROOT / "src/stratpol/domains/gripper/domain.pddl", "--instances", training,
                   "--out", tmp_path / "gripper.policy")
    assert run.returncode == 0, run.stderr
    reason = "unsolvable: the teacher proves its initial state a dead end"
    assert f"left out two-rooms-at-once.pddl: {reason}" in run.stderr
    assert run.stdout.splitlines()[-1] == f"# verified on all 2 training instances; 1 left out " \
                                          f"(two-rooms-at-once.pddl: {reason})"
    record = json.loads((tmp_path / "gripper.learned.json").read_text())
    assert record["files"]["left_out"] == {"two-rooms-at-once.pddl": reason}


@pytest.mark.parametrize("given, problem", [
    ("empty", "empty: no PDDL problem files here"),
    ("miconic", "p01.pddl: PDDL error (line 2): The type with name \"floor\" is undefined."),
])
def test_a_training_set_with_no_problems_or_another_domains_is_one_line_and_exit_2(tmp_path, given, problem):
    if given == "empty":
        path = tmp_path / "empty"
        path.mkdir()
    else:
        path = tmp_path / "p01.pddl"
        path.write_text("(define (problem p01) (:domain miconic)\n (:objects f0 f1 - floor\n"
                        "  p0 - passenger)\n (:init (lift-at f0)) (:goal (served p0)))\n")
    run = stratpol("learn", ROOT / "src/stratpol/domains/gripper/domain.pddl", "--instances", path,
                   "--out", tmp_path / "out.policy")
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [f"stratpol: error: {tmp_path}/{problem}"]
    assert list(tmp_path.glob("out*")) == []
