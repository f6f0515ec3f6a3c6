"""`stratpol bench ipc2023`: methods on test problems under limits, records that resume, plans that
validate, and the coverage table beside the competition's numbers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from helpers import DATA, stratpol

from stratpol.evaluation.goal_progress import GoalProgress
from stratpol.features import Vocabulary
from stratpol.features.grammar import load_grammar
from stratpol.features.kind import Kind
from stratpol.features.pool import parse_feature
from stratpol.generation import domain_folder
from stratpol.bench.ipc2023.anchors import LEVELS
from stratpol.bench.ipc2023.report import render_coverage
from stratpol.bench.ipc2023.runs import Limits, Problem, ProblemRecord, ipc2023_benchmark, published_problems, validated
from stratpol.planning import Domain
from stratpol.planning.plans import read_plan
from stratpol.records import read_records

ROOT = Path(__file__).resolve().parents[2]
IPC2023 = ROOT.parent / "shared" / "benchmarks" / "ipc2023"
# the settings the hand-assisted IPC policies were learned with (the IPC domains' own entries)
HAND_SETTINGS = ROOT / "experiments" / "results" / "policies" / "ipc2023" / "learning_settings.toml"


@pytest.fixture
def benchmarks(tmp_path: Path) -> Path:
    """An IPC-shaped folder: gripper's domain, two easy test problems and one medium."""
    folder = tmp_path / "benchmarks" / "gripper"
    generator = domain_folder("gripper").generator
    for level, balls in (("easy", 2), ("easy", 3), ("medium", 8)):
        (folder / "testing" / level).mkdir(parents=True, exist_ok=True)
        (folder / "testing" / level / f"p{balls:02}.pddl").write_text(generator(balls=balls))
    (folder / "domain.pddl").write_text(domain_folder("gripper").domain.path.read_text())
    return folder.parent


@pytest.fixture
def policies(tmp_path: Path) -> Path:
    folder = tmp_path / "policies"
    folder.mkdir()
    (folder / "gripper.policy").write_text((DATA / "golden" / "gripper.policy").read_text())
    return folder


def test_a_rule_policy_solves_the_test_problems_and_its_plans_validate(benchmarks, policies, tmp_path):
    out = tmp_path / "out"
    records = ipc2023_benchmark(benchmarks, out, ["gripper"], methods=["rules", "sketch"], policies=policies,
                                limits=Limits(60, 4096))
    assert len(records) == 6 and all(r.solved for r in records)
    domain = Domain(benchmarks / "gripper" / "domain.pddl")
    for record in records:
        plan = out / "plans" / record.method / "gripper" / record.level / record.problem.replace(".pddl", ".plan")
        assert validated(domain, benchmarks / "gripper" / "testing" / record.level / record.problem, plan) is None
        assert len(read_plan(plan)) == record.plan_length and record.peak_mb > 0
    # gripper's golden policy needs no search: every sketch decision has width 0, so the sketch
    # follows the same choices as the policy alone
    assert {r.max_width for r in records if r.method == "sketch"} == {0}
    lengths = {(r.method, r.problem): r.plan_length for r in records}
    assert all(lengths["rules", problem] == lengths["sketch", problem] for _, problem in lengths)
    # the sketch run is the policy's run, recorded again and not repeated, also where the policy
    # ran alone in an earlier bench
    later = tmp_path / "later"
    alone = ipc2023_benchmark(benchmarks, later, ["gripper"], methods=["rules"], policies=policies)
    sketches = ipc2023_benchmark(benchmarks, later, ["gripper"], methods=["sketch"], policies=policies)
    assert [(r.problem, r.seconds, r.peak_mb) for r in sketches] == [(r.problem, r.seconds, r.peak_mb) for r in alone]


def test_runs_on_the_cpu_clock_are_a_table_of_their_own(benchmarks, policies, tmp_path):
    # for a machine with other work on it: the limits count the runs' CPU seconds, and records
    # under the wall clock's limits are neither reused nor reported as theirs
    out = tmp_path / "out"
    cpu = Limits(60, 4096, clock="cpu")
    assert cpu.describe() == "60 s CPU, 4096 MiB" and Limits(60, 4096).describe() == "60 s, 4096 MiB"
    records = ipc2023_benchmark(benchmarks, out, ["gripper"], ["easy"], ["rules", "lama-first"], policies,
                                limits=cpu)
    assert len(records) == 4 and all(r.solved and r.setting.endswith(", 60 s CPU, 4096 MiB") for r in records)
    assert all(0 < r.seconds < 60 for r in records)
    walled = ipc2023_benchmark(benchmarks, out, ["gripper"], ["easy"], ["rules", "lama-first"], policies,
                               limits=Limits(60, 4096), run=False)
    assert walled == []


def test_a_sketch_searches_where_the_policy_alone_has_no_successor(benchmarks, tmp_path):
    # the golden policy without its drop rule: holding balls in the target room, no rule applies
    policies = tmp_path / "policies"
    policies.mkdir()
    text = (DATA / "golden" / "gripper.policy").read_text()
    (policies / "gripper.policy").write_text(text.replace("{m > 0} -> {m down}\n", ""))
    records = ipc2023_benchmark(benchmarks, tmp_path / "out", ["gripper"], levels=["easy"],
                                methods=["rules", "sketch"], policies=policies)
    outcomes = {(r.method, r.problem): (r.outcome, r.max_width) for r in records}
    assert outcomes[("rules", "p02.pddl")] == ("no successor", None)
    assert outcomes[("sketch", "p02.pddl")][0] == "solved" and outcomes[("sketch", "p02.pddl")][1] >= 1


def test_an_interrupted_run_resumes_without_rerunning_finished_problems(benchmarks, policies, tmp_path):
    out = tmp_path / "out"
    first = ipc2023_benchmark(benchmarks, out, ["gripper"], levels=["easy"], methods=["rules"], policies=policies)
    # the log as an interrupt leaves it: the first record and half a line
    log = out / "records.jsonl"
    lines = log.read_text().splitlines()
    log.write_text(lines[0] + "\n" + lines[1][:20])
    lines_seen = []
    resumed = ipc2023_benchmark(benchmarks, out, ["gripper"], methods=["rules"], policies=policies,
                                progress=lines_seen.append)
    assert "1 of 3 runs recorded" in lines_seen[0]
    ran = [line for line in lines_seen if line.startswith("rules gripper/")]
    assert [line.split(":")[0] for line in ran] == ["rules gripper/easy/p03.pddl", "rules gripper/medium/p08.pddl"]
    assert resumed[0] == first[0] and len(resumed) == 3
    assert len(read_records(log, ProblemRecord)) == 3
    # nothing is left to run; a changed limit runs every problem again
    again = []
    ipc2023_benchmark(benchmarks, out, ["gripper"], methods=["rules"], policies=policies, progress=again.append)
    assert again == ["3 of 3 runs recorded in " + str(log) + "; running the other 0"]
    changed = ipc2023_benchmark(benchmarks, out, ["gripper"], methods=["rules"], policies=policies,
                                limits=Limits(900, 8192))
    assert len(changed) == 3 and len(read_records(log, ProblemRecord)) == 6
    # a report runs nothing: the records of the setting asked for, none of another's
    reported = ipc2023_benchmark(benchmarks, out, ["gripper"], methods=["rules", "sketch"], policies=policies,
                                 limits=Limits(900, 8192), run=False)
    assert reported == changed and len(read_records(log, ProblemRecord)) == 6


def test_a_run_past_the_time_limit_is_stopped_and_counts_as_unsolved(benchmarks, policies, tmp_path):
    big = benchmarks / "gripper" / "testing" / "hard"
    big.mkdir()
    (big / "p400.pddl").write_text(domain_folder("gripper").generator(balls=400))
    out = tmp_path / "out"
    records = ipc2023_benchmark(benchmarks, out, ["gripper"], levels=["hard"], methods=["sketch"],
                                policies=policies, limits=Limits(0.5, 4096))
    assert [r.outcome for r in records] == ["time limit"] and records[0].plan_length is None
    # an unsolved problem is not run again, unless asked for; then its new record replaces the old
    log = out / "records.jsonl"
    again = ipc2023_benchmark(benchmarks, out, ["gripper"], levels=["hard"], methods=["sketch"],
                              policies=policies, limits=Limits(0.5, 4096))
    assert again == records and len(read_records(log, ProblemRecord)) == 1
    retried = ipc2023_benchmark(benchmarks, out, ["gripper"], levels=["hard"], methods=["sketch"],
                                policies=policies, limits=Limits(0.5, 4096), retry_unsolved=True)
    assert [r.outcome for r in retried] == ["time limit"] and len(read_records(log, ProblemRecord)) == 2
    reported = ipc2023_benchmark(benchmarks, out, ["gripper"], levels=["hard"], methods=["sketch"],
                                 policies=policies, limits=Limits(0.5, 4096), run=False)
    assert reported == retried == read_records(log, ProblemRecord)[-1:]


def test_an_unsolved_policy_run_records_how_far_it_got(benchmarks, tmp_path):
    # a policy that only picks up a ball, in an empty hand: one step, then none it accepts
    (tmp_path / "policies").mkdir()
    (tmp_path / "policies" / "gripper.policy").write_text(
        "# stratpol policy\nnumerical m = n_count(r_primitive(carry,0,1))\n\n{m = 0} -> {m up}\n")
    records = ipc2023_benchmark(benchmarks, tmp_path / "out", ["gripper"], levels=["easy"], methods=["rules"],
                                policies=tmp_path / "policies", limits=Limits(60.0))
    assert [(r.problem, r.outcome) for r in records] == [("p02.pddl", "no successor"), ("p03.pddl", "no successor")]
    # one step taken, none of the 2 (3) balls in room b: stalled from the start
    assert [r.progress for r in records] == [GoalProgress(1, 2, 0, 0), GoalProgress(1, 3, 0, 0)]
    assert read_records(tmp_path / "out" / "records.jsonl", ProblemRecord) == records


def test_a_domain_without_a_policy_runs_only_the_planner(benchmarks, tmp_path):
    lines = []
    records = ipc2023_benchmark(benchmarks, tmp_path / "out", ["gripper"], levels=["easy"],
                                methods=["rules", "lama-first"], policies=tmp_path, progress=lines.append)
    assert "no policy" in lines[0]
    assert [(r.method, r.outcome) for r in records] == [("lama-first", "solved")] * 2


def test_bench_ipc2023_prints_coverage_beside_the_competition_and_writes_its_files(benchmarks, policies, tmp_path):
    out = tmp_path / "out"
    run = stratpol("bench", "ipc2023", "--benchmarks", benchmarks, "--domains", "gripper", "--levels", "easy",
                   "--methods", "rules", "lama-first", "--policies", policies, "--time-limit", "60",
                   "--planner-time-limit", "30", "--jobs", "2", "--out", out)
    assert run.returncode == 0, run.stderr
    assert "limits per problem: 60 s, 8192 MiB (lama-first: 30 s)" in run.stdout
    row = next(line for line in run.stdout.splitlines() if line.startswith("gripper"))
    # both solve both easy problems; the policy's plans are as long as LAMA's on gripper
    assert row.split()[1:6] == ["2", "2/-/-", "=", "2", "2/-/-"]
    assert (out / "coverage.png").stat().st_size > 0
    rows = (out / "coverage.csv").read_text().splitlines()
    assert rows[0] == "domain,method,level,solved,run,tests,mean_plan_length" and "gripper,rules,easy,2,2,2,8.0" in rows
    document = json.loads((out / "coverage.json").read_text())
    assert document["limits"] == "60 s, 8192 MiB (lama-first: 30 s)" and document["anchors"] == {}
    settings = {json.loads(line)["setting"].split(", ", 1)[1] for line in (out / "records.jsonl").open()}
    assert settings == {"60 s, 8192 MiB", "30 s, 8192 MiB"}
    # the CPU clock's table has files of its own beside the wall clock's
    cpu = stratpol("bench", "ipc2023", "--benchmarks", benchmarks, "--domains", "gripper", "--levels", "easy",
                   "--methods", "rules", "--policies", policies, "--time-limit", "60", "--clock", "cpu", "--out", out)
    assert cpu.returncode == 0, cpu.stderr
    assert "limits per problem: 60 s CPU, 8192 MiB" in cpu.stdout
    assert json.loads((out / "coverage-cpu.json").read_text())["limits"] == "60 s CPU, 8192 MiB"
    assert json.loads((out / "coverage.json").read_text())["limits"] == "60 s, 8192 MiB (lama-first: 30 s)"


def test_a_run_on_part_of_the_track_keeps_the_recorded_rest_in_the_files(benchmarks, policies, tmp_path):
    out = tmp_path / "out"
    common = ("bench", "ipc2023", "--benchmarks", benchmarks, "--domains", "gripper", "--policies", policies,
              "--time-limit", "60", "--out", out)
    assert stratpol(*common, "--levels", "easy", "--methods", "rules").returncode == 0
    run = stratpol(*common, "--levels", "medium", "--methods", "lama-first", "--planner-time-limit", "30")
    assert run.returncode == 0, run.stderr
    rows = (out / "coverage.csv").read_text().splitlines()
    # the rules' easy runs of the first call stay in the files beside LAMA-first's medium run
    assert "gripper,rules,easy,2,2,2,8.0" in rows and any(r.startswith("gripper,lama-first,medium,1,1,1,") for r in rows)
    row = next(line for line in run.stdout.splitlines() if line.startswith("gripper"))
    assert row.split()[1:8] == ["3", "2/-/-", "=", "2", "-/1/-", "=", "1"]
    # records under other limits are another table: a run at 20 s shows neither LAMA-first nor medium
    other = stratpol(*common[:-4], "--time-limit", "20", "--out", out, "--levels", "easy", "--methods", "rules")
    assert other.returncode == 0, other.stderr
    assert (out / "coverage.csv").read_text().splitlines()[1:] == ["gripper,rules,easy,2,2,2,8.0"]


def test_plan_lengths_are_compared_on_the_problems_both_solve():
    from stratpol.bench.ipc2023.report import common_plan_lengths

    def record(method: str, level: str, length: int | None) -> ProblemRecord:
        return ProblemRecord(method, "ferry", level, "p01.pddl", "solved" if length else "time limit", length, 1.0,
                             1.0, "s")

    records = [record("rules", "easy", 10), record("lama-first", "easy", 8), record("rules", "medium", 40),
               record("lama-first", "medium", None), record("rules", "hard", 100)]
    # the same file name at two levels is two problems; only easy's p01 is solved by both
    assert common_plan_lengths(records, "ferry", "rules") == (10.0, 8.0, 1)


def test_the_csv_gives_each_level_the_mean_plan_length_of_its_own_solved_problems(tmp_path):
    from stratpol.bench.ipc2023.report import write_coverage

    records = [ProblemRecord("rules", "ferry", "easy", "p01.pddl", "solved", 10, 1.0, 1.0, "s"),
               ProblemRecord("rules", "ferry", "easy", "p02.pddl", "solved", 20, 1.0, 1.0, "s"),
               ProblemRecord("rules", "ferry", "medium", "p01.pddl", "solved", 60, 1.0, 1.0, "s")]
    problems = [Problem("ferry", level, Path(f"p{number:02}.pddl")) for level in LEVELS for number in (1, 2)]
    write_coverage(records, problems, ["rules"], "60 s, 8192 MiB", tmp_path)
    rows = (tmp_path / "coverage.csv").read_text().splitlines()[1:]
    # a level run by none has no mean; the json keeps the mean over all levels
    assert rows == ["ferry,rules,easy,2,2,2,15.0", "ferry,rules,medium,1,1,2,60.0", "ferry,rules,hard,0,0,2,"]
    assert json.loads((tmp_path / "coverage.json").read_text())["coverage"][0]["mean_plan_length"] == 30.0


def test_the_table_sets_the_field_beside_ours():
    record = ProblemRecord("rules", "ferry", "hard", "p01.pddl", "solved", 100, 1.0, 50.0, "s")
    problems = [Problem("ferry", level, Path(f"p{number:02}.pddl")) for level in LEVELS for number in range(1, 31)]
    table = render_coverage([record], problems, ["rules"], "1800 s, 8192 MiB")
    row = next(line for line in table.splitlines() if line.startswith("ferry"))
    # ours (easy and medium not run, one hard problem run), then the best competitor (Vanir's sketch policy), WL-GOOSE,
    # the Q-value paper's R-GNN and the best reported
    assert row.split() == ["ferry", "90", "-/-/1*", "=", "1", "-", "Vanir", "77", "(30/30/17)", "77", "68%", "77"]


@pytest.mark.skipif(not IPC2023.is_dir(), reason="../shared/benchmarks/ipc2023 is not here")
def test_the_published_files_load_as_they_are():
    # IPC 2023's blocksworld domain has no :typing, and its problems type their blocks `- object`
    domain = Domain(IPC2023 / "blocksworld" / "domain.pddl")
    assert ":typing" not in domain.text
    problem = min((IPC2023 / "blocksworld" / "testing" / "easy").glob("*.pddl"))
    assert "- object" in problem.read_text()
    instance = domain.load_instance(problem)
    assert len(instance.objects) == len(domain.problem_objects(problem)) > 0


def test_a_policy_of_another_domain_is_one_line_naming_its_file(benchmarks, tmp_path):
    policies = tmp_path / "policies"
    policies.mkdir()
    (policies / "gripper.policy").write_text("# stratpol policy\nnumerical n0 = n_count(c_primitive(nosuch,0))\n\n"
                                             "{} -> {n0 down}\n")
    run = stratpol("bench", "ipc2023", "--benchmarks", benchmarks, "--domains", "gripper", "--methods", "rules",
                   "--policies", policies, "--out", tmp_path / "out", timeout=120)
    assert run.returncode == 2 and len(run.stderr.strip().splitlines()) == 1
    assert "gripper.policy" in run.stderr and "undefined predicate 'nosuch'" in run.stderr
    assert not (tmp_path / "out" / "records.jsonl").exists()


def test_a_file_no_planner_could_read_is_one_line_naming_it(tmp_path):
    from stratpol.errors import InputError

    broken = tmp_path / "p.pddl"
    broken.write_text("(define (problem p) (:domain gripper) (:objects b1 - ball) (:init (no-such b1)) (:goal (at b1 b1)))")
    with pytest.raises(InputError) as error:
        domain_folder("gripper").domain.load_instance(broken)
    assert str(broken) in str(error.value) and len(str(error.value).splitlines()) == 1


IPC_POLICIES = sorted((ROOT / "experiments" / "results" / "policies" / "ipc2023").glob("*.policy"))


@pytest.mark.skipif(not IPC2023.is_dir(), reason="../shared/benchmarks/ipc2023 is not here")
@pytest.mark.parametrize("policy", IPC_POLICIES, ids=lambda path: path.stem)
def test_each_ipc_policy_solves_easy_test_problems_with_valid_plans(policy, tmp_path):
    # the first two easy problems of the domain's published test set, the policy alone
    benchmarks = tmp_path / "ipc2023"
    easy = benchmarks / policy.stem / "testing" / "easy"
    easy.mkdir(parents=True)
    (benchmarks / policy.stem / "domain.pddl").symlink_to(IPC2023 / policy.stem / "domain.pddl")
    for problem in sorted((IPC2023 / policy.stem / "testing" / "easy").glob("*.pddl"))[:2]:
        (easy / problem.name).symlink_to(problem)
    records = ipc2023_benchmark(benchmarks, tmp_path / "out", [policy.stem], methods=["rules"],
                                policies=policy.parent, limits=Limits(120, 8192))
    assert [r.outcome for r in records] == ["solved", "solved"]


@pytest.mark.skipif(not IPC2023.is_dir(), reason="../shared/benchmarks/ipc2023 is not here")
@pytest.mark.parametrize(("name", "complexities"), [
    ("transport", [9, 15, 19]), ("floortile", [4, 4, 15, 23, 17, 40, 32, 20, 39]),
    ("rovers", [5, 5, 4, 10, 10, 6, 2, 2, 43, 20, 20, 20, 25])])
def test_the_listed_features_of_an_ipc_grammar_read_in_its_domain(name, complexities):
    # the complexities are those the grammar files and experiments/README.md give
    grammar = load_grammar(name)
    vocabulary = Vocabulary(Domain(IPC2023 / name / "domain.pddl"))
    features = [parse_feature(vocabulary, Kind.NUMERICAL, expression) for expression in grammar.features]
    assert [f.complexity for f in features] == complexities


def _learn_with_the_entry_and_solve(tmp_path, name: str, tests: str, numbers: Sequence[int] = range(1, 21)) -> str:
    """Learn `name` with its hand-assisted entry (HAND_SETTINGS) from the training files `numbers` (default: the first 20),
    check the policy's certificate and verification, solve each of `tests` (`testing/<test>.pddl`,
    space-separated) with it and validate the plans; the learner's progress (stderr, its first
    line the settings) for the caller to check."""
    folder = IPC2023 / name
    domain = folder / "domain.pddl"
    training = [folder / "training" / "easy" / f"p{number:02d}.pddl" for number in numbers]
    out = tmp_path / f"{name}.policy"
    learned = stratpol("learn", domain, "--instances", *training, "--settings", HAND_SETTINGS, "--out", out,
                       cache=tmp_path / "cache")
    assert learned.returncode == 0, learned.stderr
    assert "# termination: 1-stratified" in learned.stdout
    assert f"# verified on all {len(training)} training instances" in learned.stdout
    for test in tests.split():
        problem = folder / "testing" / f"{test}.pddl"
        run = stratpol("run", "--domain", domain, out, problem)
        assert run.returncode == 0 and "solved in" in run.stdout, (test, run.stdout[-300:], run.stderr)
        plan = tmp_path / "plan"
        plan.write_text(run.stdout)
        check = stratpol("validate", domain, problem, plan)
        assert check.returncode == 0, check.stdout + check.stderr
    return learned.stderr


@pytest.mark.skipif(not IPC2023.is_dir(), reason="../shared/benchmarks/ipc2023 is not here")
@pytest.mark.parametrize(("name", "test", "numbers", "setting"), [
    # nine listed features, the colour-aware robot distance among them, longest plans first; the
    # first 19 training files have one or two robots and at most 20 tiles, medium p06 six robots on
    # 169 tiles, where robots stand in a column under one that must get off its tile. The committed
    # policy is learned on p01-p20, but p20 alone takes A* with LM-cut about a minute and its
    # verification most of the rest (120 s in all against 11 s); the policy of p01-p19 (7 features,
    # 7 rules) solves p06 too, in the same 721 steps
    ("floortile", "medium/p06", range(1, 20), "dead-end tests on, teacher time limit 600 s"),
    # thirteen listed features, indexed role distances pairing each rover with its own targets
    # along its own roads; the one-rover training files p01-p05 and p07-p15; on easy p11's three
    # rovers, distances along every rover's roads together stop the policy after 9 steps, and on
    # p19 holders of a pending image told by have_image's projections after 69
    ("rovers", "easy/p11 easy/p19", [*range(1, 6), *range(7, 16)], "features ranked lexicographically"),
])
def test_learn_takes_an_ipc_entry_of_listed_role_distances_and_solves_a_multi_agent_problem(tmp_path, name, test,
                                                                                             numbers, setting):
    progress = _learn_with_the_entry_and_solve(tmp_path, name, test, numbers)
    assert f"grammar {name}" in progress and setting in progress


@pytest.mark.skipif(not IPC2023.is_dir(), reason="../shared/benchmarks/ipc2023 is not here")
def test_learn_takes_the_ipc_transport_entry_and_its_policy_solves_a_hard_problem(tmp_path):
    # the hand-assisted entry [domains.transport]: listed distances, pick-up conditions kept. Hard p01
    # has 30 vehicles and 20 packages on 50 locations; the first 20 training files have at most 3
    # vehicles, 4 packages, 7 locations
    progress = _learn_with_the_entry_and_solve(tmp_path, "transport", "hard/p01")
    assert "grammar transport" in progress and "conditions on raised features kept" in progress


@pytest.mark.skipif(not IPC2023.is_dir(), reason="../shared/benchmarks/ipc2023 is not here")
def test_learn_takes_the_ipc_blocksworld_entry_and_its_policy_stacks_35_blocks(tmp_path):
    # the hand-assisted entry [domains.blocksworld]: the listed well-placed features, astar-lmcut's
    # plans; medium p01 has 35 blocks, where the largest training file has 6
    progress = _learn_with_the_entry_and_solve(tmp_path, "blocksworld", "medium/p01")
    assert "grammar blocksworld, teacher astar-lmcut" in progress


def test_neural_runs_stand_beside_the_q_value_papers_table_4():
    from stratpol.bench.ipc2023.report import render_q_paper

    records = [ProblemRecord("gnn-q-heu", "ferry", "easy", "p01.pddl", "solved", 20, 1.0, 10.0, "s"),
               ProblemRecord("gnn-q-heu", "ferry", "easy", "p02.pddl", "no successor", None, 1.0, 10.0, "s")]
    problems = [Problem("ferry", "easy", Path(f"p0{n}.pddl")) for n in (1, 2)]
    lines = render_q_paper(records, problems, ["rules", "gnn-q-heu"]).splitlines()
    assert lines[1].split() == ["domain", "gnn-q-heu"]
    assert lines[2].split() == ["ferry", "1/2", "(20)", "|", "67.8%", "(120)"]  # the paper: 67.8%, 119.6 steps
    assert render_q_paper(records, problems, ["rules", "lama-first"]) == ""  # no R-GNN asked for


def test_the_unsolved_runs_say_how_they_ended_and_how_many_stalled(tmp_path):
    from stratpol.bench.ipc2023.report import render_unsolved, write_coverage

    def record(problem: str, outcome: str, steps: int | None = None, met_at: int = 0) -> ProblemRecord:
        return ProblemRecord("gnn-q-heu", "rovers", "medium", problem, outcome, 9 if outcome == "solved" else None,
                             60.0, 1.0, "s", steps=steps, goals=None if steps is None else 6,
                             goals_met=None if steps is None else 3, goals_met_at=None if steps is None else met_at)

    records = [record("p01.pddl", "solved"), record("p02.pddl", "time limit", 1000, 400),  # stalled
               record("p03.pddl", "time limit", 3000, 2900), record("p04.pddl", "time limit", 2000, 900),
               record("p05.pddl", "step bound", 300, 290), record("p06.pddl", "time limit")]  # records without goal progress
    problems = [Problem("rovers", "medium", Path(f"p0{n}.pddl")) for n in range(1, 7)]
    lines = render_unsolved(records, problems, ["gnn-q-heu"]).splitlines()
    # p06 has no progress recorded: 2 of the 3 time-limit runs that have stalled, in 2,000 steps on average
    assert lines[2] == ("rovers      gnn-q-heu             5  time limit 4 (2 of 3 stalled, 2,000 steps), "
                        "step bound 1 (0 stalled, 300 steps)")
    assert render_unsolved(records[:1], problems, ["gnn-q-heu"]) == ""
    write_coverage(records, problems, ["gnn-q-heu"], "60 s CPU, 8192 MiB", tmp_path)
    ended = json.loads((tmp_path / "coverage.json").read_text())["unsolved"]
    assert ended == [{"domain": "rovers", "method": "gnn-q-heu", "runs": {"time limit": 4, "step bound": 1},
                      "recorded": {"time limit": 3, "step bound": 1}, "stalled": {"time limit": 2, "step bound": 0},
                      "mean_steps": {"time limit": 2000.0, "step bound": 300.0}}]


def test_a_neural_methods_runs_stay_in_the_table_where_its_model_is_not_here(benchmarks, tmp_path):
    # trained models are not kept in git: on a fresh checkout the table shows each problem's latest
    # record under the same limits, not "not run" (and not those under other limits)
    from stratpol.records import append_record

    out = tmp_path / "out"
    limits = Limits(60.0)
    for setting, outcome in (("model aaaa, 60 s, 8192 MiB", "step bound"), ("model bbbb, 60 s, 8192 MiB", "solved"),
                             ("model cccc, 30 s, 8192 MiB", "time limit")):
        append_record(out / "records.jsonl", ProblemRecord("gnn-v", "gripper", "easy", "p02.pddl", outcome,
                                                           5 if outcome == "solved" else None, 1.0, 50.0, setting))
    records = ipc2023_benchmark(benchmarks, out, ["gripper"], ["easy"], ["gnn-v"], limits=limits, run=False,
                                models={})
    assert [(r.problem, r.outcome, r.setting) for r in records] == [("p02.pddl", "solved", "model bbbb, 60 s, 8192 MiB")]


def test_a_level_the_model_here_has_not_run_shows_the_runs_of_the_model_that_ran_it(benchmarks, tmp_path):
    # a model trained again (another hash) runs medium; the table keeps easy's runs by the earlier model
    from stratpol.provenance import model_hash
    from stratpol.records import append_record

    out, model = tmp_path / "out", tmp_path / "model"
    model.mkdir()
    (model / "weights").write_text("new\n")
    here = model_hash(model)[:12]
    for level, problem, setting in (("easy", "p02.pddl", "aaaa"), ("medium", "p08.pddl", here)):
        append_record(out / "records.jsonl", ProblemRecord("gnn-v", "gripper", level, problem, "solved", 5, 1.0,
                                                           50.0, f"model {setting}, 60 s, 8192 MiB"))
    records = ipc2023_benchmark(benchmarks, out, ["gripper"], ["easy", "medium"], ["gnn-v"], limits=Limits(60.0),
                                run=False, models={("gnn-v", "gripper"): model})
    assert sorted((r.level, r.setting.split(",")[0]) for r in records) == [
        ("easy", "model aaaa"), ("medium", f"model {here}")]


def test_a_level_keeps_the_runs_of_one_model_and_the_table_says_when_levels_ran_two(benchmarks, tmp_path):
    # the model that ran last on a level owns it: the easy level shows model bbbb's one run, not
    # model aaaa's solved p02 beside it; medium was run by aaaa only, so the table counts 2 models
    from stratpol.bench.ipc2023.report import coverage
    from stratpol.records import append_record

    out = tmp_path / "out"
    for level, problem, setting, outcome in (("easy", "p02.pddl", "aaaa", "solved"),
                                             ("easy", "p03.pddl", "aaaa", "solved"),
                                             ("medium", "p08.pddl", "aaaa", "solved"),
                                             ("easy", "p03.pddl", "bbbb", "step bound")):
        append_record(out / "records.jsonl", ProblemRecord("gnn-v", "gripper", level, problem, outcome,
                                                           5 if outcome == "solved" else None, 1.0, 50.0,
                                                           f"model {setting}, 60 s, 8192 MiB"))
    records = ipc2023_benchmark(benchmarks, out, ["gripper"], ["easy", "medium"], ["gnn-v"], limits=Limits(60.0),
                                run=False, models={})
    assert sorted((r.level, r.problem, r.setting.split(",")[0]) for r in records) == [
        ("easy", "p03.pddl", "model bbbb"), ("medium", "p08.pddl", "model aaaa")]
    table = coverage(records, "gnn-v", "gripper")
    assert (table.solved, table.run, table.settings) == ({"easy": 0, "medium": 1, "hard": 0},
                                                         {"easy": 1, "medium": 1, "hard": 0}, 2)
    problems = published_problems(benchmarks, ["gripper"], ["easy", "medium"])
    assert "0*/1/- = 1 (2 models)" in render_coverage(records, problems, ["gnn-v"], "60 s, 8192 MiB")
