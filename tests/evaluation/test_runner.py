"""Running policies: solved runs validate, failures say why."""

from __future__ import annotations

import time
from pathlib import Path

from stratpol.evaluation import PlannerPolicy, RulePolicy, RunFailure, run
from stratpol.evaluation.runner import CLOCKS, process_cpu_seconds, run_together
from stratpol.features import Vocabulary
from stratpol.generation import domain_folder
from stratpol.planning import Domain
from stratpol.policy import Change, Feature, Kind, Policy, Rule
from stratpol.policy.text import read_policy
from stratpol.processes.limits import TIME_LIMIT_CLOCKS

DATA = Path(__file__).resolve().parents[1] / "data"


def test_rule_policy_run_solves_and_is_reproducible():
    folder = domain_folder("gripper")
    vocabulary = Vocabulary(folder.domain)
    policy = read_policy(DATA / "golden" / "gripper.policy")
    instance = folder.domain.instance_from_text(folder.generator(balls=6))
    first = run(RulePolicy(policy, vocabulary, seed=4), instance, step_bound=100)
    again = run(RulePolicy(policy, vocabulary, seed=4), instance, step_bound=100)
    assert first.solved and first.plan == again.plan and first.failure is None
    assert run(RulePolicy(policy, vocabulary, tie_break="first"), instance, step_bound=5).failure is RunFailure.STEP_BOUND


def _ends(outcomes) -> list:
    """How each run ended: its instance, plan and failure."""
    return [(o.instance, o.plan, o.failure) for o in outcomes]


def test_runs_together_end_as_the_same_runs_alone():
    # run_together advances several runs a decision at a time; a policy without choose_together
    # decides for each alone, so each run is the run it would be by itself: solved, at the step
    # bound or a revisit, with the same plan
    folder = domain_folder("gripper")
    vocabulary = Vocabulary(folder.domain)
    instances = [folder.domain.instance_from_text(folder.generator(balls=balls)) for balls in (1, 4, 7)]
    moving = Feature("r", Kind.NUMERICAL, "n_count(c_primitive(at-robby,0))")
    for policy in (read_policy(DATA / "golden" / "gripper.policy"), Policy.of([moving], [Rule.of({}, {})])):
        for tie_break in ("first", "random"):
            rules = RulePolicy(policy, vocabulary, tie_break=tie_break, seed=3)
            together = run_together(rules, instances, step_bound=30)
            alone = [run(rules, instance, step_bound=30) for instance in instances]
            assert _ends(together) == _ends(alone)
    assert RunFailure.REVISIT in {o.failure for o in together}  # the wandering policy's random walks
    solved = run_together(RulePolicy(read_policy(DATA / "golden" / "gripper.policy"), vocabulary), instances, 15)
    assert [o.solved for o in solved] == [True, True, False] and solved[2].failure is RunFailure.STEP_BOUND


def test_no_successor_revisit_and_dead_end():
    folder = domain_folder("gripper")
    vocabulary = Vocabulary(folder.domain)
    instance = folder.domain.instance_from_text(folder.generator(balls=2))
    moving = Feature("r", Kind.NUMERICAL, "n_count(c_primitive(at-robby,0))")
    # a policy with no rule that applies: nothing to do
    assert run(RulePolicy(Policy.of([moving], []), vocabulary), instance, 10).failure is RunFailure.NO_SUCCESSOR
    # moving without changing any feature: back and forth forever
    wander = Policy.of([moving], [Rule.of({}, {})])
    assert run(RulePolicy(wander, vocabulary, tie_break="first"), instance, 10).failure is RunFailure.REVISIT
    # forbidding revisits, the same wandering never comes back to a state
    wandering = run(RulePolicy(wander, vocabulary), instance, 10, forbid_revisits=True)
    assert wandering.failure is not RunFailure.REVISIT
    oneway = Domain(DATA / "gripper-oneway.pddl")
    stuck = oneway.instance_from_text(
        "(define (problem o) (:domain gripper-oneway) (:objects left right - gripper b1 - ball)"
        " (:init (at-robby rooma) (free left) (free right) (at b1 rooma)) (:goal (at b1 roomb)))")
    robot_in_a = Feature("a", Kind.BOOLEAN, "b_empty(c_and(c_primitive(at-robby,0),c_one_of(roomb)))")
    leave = Policy.of([robot_in_a], [Rule.of({"a": True}, {"a": Change.DOWN})])
    outcome = run(RulePolicy(leave, Vocabulary(oneway)), stuck, 10)
    assert outcome.failure is RunFailure.DEAD_END and outcome.steps == 1


def test_a_policy_run_as_a_sketch_searches_only_where_it_has_no_successor():
    folder = domain_folder("gripper")
    vocabulary = Vocabulary(folder.domain)
    instance = folder.domain.instance_from_text(folder.generator(balls=4))
    # a closed policy: the sketch run is the policy's own run, every decision of width 0
    policy = RulePolicy(read_policy(DATA / "golden" / "gripper.policy"), vocabulary, seed=3)
    plain, sketch = run(policy, instance, 100), run(policy, instance, 100, sketch_width=2)
    assert sketch.solved and sketch.plan == plain.plan and sketch.max_width == 0
    assert len(sketch.widths) == sketch.steps and plain.widths == ()
    # one rule, "deliver a ball": no single action does it, IW finds pick, move and drop
    delivered = Feature("g", Kind.NUMERICAL, "n_count(c_equal(r_primitive(at,0,1),r_primitive(at_g,0,1)))")
    deliver = RulePolicy(Policy.of([delivered], [Rule.of({}, {"g": Change.UP})]), vocabulary)
    assert run(deliver, instance, 100).failure is RunFailure.NO_SUCCESSOR
    as_sketch = run(deliver, instance, 100, sketch_width=2)
    assert as_sketch.solved and len(as_sketch.widths) == 4 and 1 <= as_sketch.max_width <= 2
    assert as_sketch.policy_failure is RunFailure.NO_SUCCESSOR and 0 < as_sketch.mean_width <= 2
    # a subgoal no search reaches (a delivered ball never leaves): no successor within the width
    undeliver = RulePolicy(Policy.of([delivered], [Rule.of({}, {"g": Change.DOWN})]), vocabulary)
    stuck = run(undeliver, instance, 100, sketch_width=2)
    assert stuck.failure is RunFailure.NO_SUCCESSOR and stuck.widths == ()


def test_planner_policy_follows_its_plan():
    folder = domain_folder("blocksworld")
    instance = folder.domain.instance_from_text(folder.generator(blocks=6, seed=2))
    outcome = run(PlannerPolicy("gbfs"), instance, step_bound=200)
    assert outcome.solved and outcome.steps > 0


def test_a_planner_out_of_time_ends_its_run_on_its_limit_not_without_successor():
    folder = domain_folder("blocksworld")
    instance = folder.domain.instance_from_text(folder.generator(blocks=12, seed=2))
    outcome = run(PlannerPolicy("astar-blind", time_limit=0.01), instance, step_bound=200)
    assert not outcome.solved and outcome.failure is RunFailure.PLANNER_LIMIT


def test_a_runs_cpu_seconds_include_the_subprocesses_it_waited_for():
    # a planner used as a policy computes in a Fast Downward process of its own
    import subprocess
    import sys

    started = process_cpu_seconds()
    subprocess.run([sys.executable, "-c", "import time\nt = time.process_time()\n"
                    "while time.process_time() - t < 0.3: pass"], check=True)
    assert process_cpu_seconds() - started >= 0.3


class _Sleepy:
    """A policy that sleeps before each of its decisions: wall-clock time that costs no CPU."""

    def __init__(self, policy, seconds: float) -> None:
        self.policy, self.seconds, self.name = policy, seconds, policy.name

    def controller(self, instance):
        controller = self.policy.controller(instance)

        class Controller:
            def choose(inner, state, excluded):
                time.sleep(self.seconds)
                return controller.choose(state, excluded)
        return Controller()


def test_every_budget_clock_of_the_protocol_is_a_clock_a_run_can_count():
    # resource_limits names the clocks without loading the engine; the runner reads them
    assert tuple(CLOCKS) == TIME_LIMIT_CLOCKS


def test_a_time_limit_on_the_cpu_clock_does_not_count_time_the_run_waited():
    # a grid with budget_clock "cpu" limits its IPC runs so: other work on the machine slows a run's
    # wall clock, not its CPU seconds
    folder = domain_folder("gripper")
    instance = folder.domain.instance_from_text(folder.generator(balls=2))
    rules = RulePolicy(read_policy(DATA / "golden" / "gripper.policy"), Vocabulary(folder.domain), seed=4)
    sleepy = _Sleepy(rules, 0.2)
    walled = run(sleepy, instance, step_bound=100, time_limit=0.5)
    timed = run(sleepy, instance, step_bound=100, time_limit=0.5, clock="cpu")
    assert walled.failure is RunFailure.TIME_LIMIT and 0 < walled.steps < timed.steps
    assert timed.solved and timed.plan == run(rules, instance, step_bound=100).plan and timed.seconds > 0.5
