"""Fast Downward as a subprocess: plans validate, optima match hand-derived ones, LM-cut is admissible.

Each planner call costs a driver start (about 0.1-0.2 s), so the instances are small.
"""

from __future__ import annotations

import math
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.planning.fast_downward import astar_lmcut, is_alias, lama_first, merge_and_shrink, run_fast_downward
from stratpol.planning.lmcut import LmcutEvaluator, lmcut_evaluator, lmcut_value
from stratpol.planning.plans import validate_plan
from stratpol.planning.problem_writer import problem_with_initial_state
from stratpol.planning.search import SearchStatus, astar, breadth_first
from stratpol.planning.task import Domain, Instance, State

ROOT = Path(__file__).resolve().parents[2]
PLANNERS = {"lama-first": lama_first, "astar-lmcut": astar_lmcut, "fd-opt": merge_and_shrink}
OPTIMAL = [astar_lmcut, merge_and_shrink]

# Gripper where the robot can only go from rooma to roomb: with a ball left in rooma and the
# robot in roomb, the goal is out of reach.
ONEWAY_DOMAIN = """
(define (domain gripper-oneway)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:constants rooma roomb - room)
  (:predicates (at-robby ?r - room) (at ?b - ball ?r - room) (free ?g - gripper) (carry ?b - ball ?g - gripper))
  (:action move
    :parameters ()
    :precondition (at-robby rooma)
    :effect (and (at-robby roomb) (not (at-robby rooma))))
  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (at ?b ?r) (at-robby ?r) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))
  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (carry ?b ?g) (at-robby ?r))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))
"""

# pymimir accepts numeric fluents; Fast Downward's translator rejects them.
NUMERIC_DOMAIN = """
(define (domain counter)
  (:requirements :strips :numeric-fluents)
  (:predicates (done))
  (:functions (count))
  (:action inc :parameters () :precondition (< (count) 3) :effect (increase (count) 1))
  (:action finish :parameters () :precondition (>= (count) 3) :effect (done)))
"""


# -- problem texts -----------------------------------------------------------------------------


def gripper_text(balls: int, name: str = "gripper", domain: str = "gripper", robot: str = "rooma",
                 goal_extra: str = "") -> str:
    """All balls in rooma, the goal all in roomb, both grippers free."""
    names = " ".join(f"ball{i}" for i in range(1, balls + 1))
    at = " ".join(f"(at ball{i} rooma)" for i in range(1, balls + 1))
    goal = " ".join(f"(at ball{i} roomb)" for i in range(1, balls + 1))
    rooms = "" if domain == "gripper-oneway" else "rooma roomb - room "
    return (f"(define (problem {name}-{balls}) (:domain {domain})"
            f" (:objects {rooms}left right - gripper {names} - ball)"
            f" (:init (at-robby {robot}) (free left) (free right) {at})"
            f" (:goal (and {goal} {goal_extra})))")


def blocks_text(init: list[list[str]], goal: list[list[str]], name: str = "blocks") -> str:
    """Towers listed bottom to top, e.g. [["c", "b", "a"]] is a on b on c with c on the table."""
    def facts(towers: list[list[str]], full: bool) -> list[str]:
        out = []
        for tower in towers:
            out.append(f"(on-table {tower[0]})")
            out += [f"(on {upper} {lower})" for lower, upper in zip(tower, tower[1:])]
            if full:
                out.append(f"(clear {tower[-1]})")
        return out

    blocks = sorted(b for tower in init for b in tower)
    return (f"(define (problem {name}) (:domain blocksworld) (:objects {' '.join(blocks)})"
            f" (:init (arm-empty) {' '.join(facts(init, True))})"
            f" (:goal (and {' '.join(facts(goal, False))})))")


@pytest.fixture(scope="module")
def gripper_domain() -> Domain:
    return Domain(ROOT / "domains" / "gripper" / "domain.pddl")


@pytest.fixture(scope="module")
def blocks_domain() -> Domain:
    return Domain(ROOT / "domains" / "blocksworld" / "domain.pddl")


@pytest.fixture(scope="module")
def oneway_domain(tmp_path_factory: pytest.TempPathFactory) -> Domain:
    path = tmp_path_factory.mktemp("oneway") / "domain.pddl"
    path.write_text(ONEWAY_DOMAIN)
    return Domain(path)


@pytest.fixture(scope="module")
def gripper4(gripper_domain: Domain) -> Instance:
    return gripper_domain.instance_from_text(gripper_text(4))


@pytest.fixture(scope="module")
def blocks5(blocks_domain: Domain) -> Instance:
    return blocks_domain.instance_from_text(
        blocks_text([["b3", "b1"], ["b5", "b2", "b4"]], [["b1", "b2", "b3", "b4", "b5"]], "blocks5")
    )


def walk(instance: Instance, steps: int, seed: int, start: State | None = None) -> State:
    rng = random.Random(seed)
    state = instance.initial_state if start is None else start
    for _ in range(steps):
        state = rng.choice(instance.successors(state)).state
    return state


def assert_solves(instance: Instance, result, start: State | None = None) -> None:
    assert result.status is SearchStatus.SOLVED, result
    check = validate_plan(instance, result.plan, start=start)
    assert check.valid, check.describe()
    assert check.cost == result.cost
    assert result.time > 0


# -- planners --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(PLANNERS))
@pytest.mark.parametrize("which", ["gripper4", "blocks5"])
def test_plans_validate(name, which, request):
    instance = request.getfixturevalue(which)
    result = PLANNERS[name](instance, time_limit=60)
    assert result.planner == name
    assert_solves(instance, result)
    assert isinstance(result.expanded, int) and result.expanded >= 1


@pytest.mark.parametrize("balls", [1, 2, 3, 4])
def test_gripper_optimum(balls, gripper_domain):
    # Every ball needs a pick and a drop (2n actions). One trip carries at most two balls, so
    # ceil(n/2) trips to roomb and ceil(n/2) - 1 returns: 2n + 2*ceil(n/2) - 1 = 3n - 1 for even
    # n and 3n for odd n.
    instance = gripper_domain.instance_from_text(gripper_text(balls))
    optimum = 3 * balls - 1 if balls % 2 == 0 else 3 * balls
    for planner in OPTIMAL:
        result = planner(instance)
        assert_solves(instance, result)
        assert result.cost == optimum, result.planner


BLOCKS_OPTIMA = [
    # Reverse the tower c on b on a (a on the table) into a on b on c. Every block ends on
    # something else than it starts on, so each moves at least once; a move is two actions
    # (unstack/pickup, then stack/putdown): 6 is a lower bound, and moving c, b, a in that
    # order onto the table / onto c / onto b reaches it.
    pytest.param([["a", "b", "c"]], [["c", "b", "a"]], 6, id="reverse-3"),
    # Five blocks on the table become one tower e on d on c on b on a: a stays, each of the
    # four others moves once (pickup + stack): 8.
    pytest.param([["a"], ["b"], ["c"], ["d"], ["e"]], [["a", "b", "c", "d", "e"]], 8, id="stack-5"),
    # Swap the top two of the tower a on b on c on d (d on the table) into b on a on c on d.
    # a must leave b while b still covers c, so a cannot go to c at once: a moves twice. b
    # must leave c before a can land on c, so b's first move cannot put it on a-on-c: b moves
    # twice. c and d stay. 4 moves = 8 actions, reached by a->table, b->table, a->c, b->a.
    pytest.param([["d", "c", "b", "a"]], [["d", "c", "a", "b"]], 8, id="swap-top-two"),
]


@pytest.mark.parametrize(("init", "goal", "optimum"), BLOCKS_OPTIMA)
def test_blocksworld_optimum(init, goal, optimum, blocks_domain):
    instance = blocks_domain.instance_from_text(blocks_text(init, goal))
    for planner in OPTIMAL:
        result = planner(instance)
        assert_solves(instance, result)
        assert result.cost == optimum, result.planner
    satisficing = lama_first(instance)
    assert_solves(instance, satisficing)
    assert satisficing.cost >= optimum


@pytest.mark.parametrize("which", ["gripper4", "blocks5"])
def test_start_from_a_reached_state(which, request):
    instance = request.getfixturevalue(which)
    state = walk(instance, 5, seed=3)
    assert state != instance.initial_state
    optimum = astar(instance, start=state, heuristic="blind").cost
    for name, planner in PLANNERS.items():
        result = planner(instance, start=state)
        assert_solves(instance, result, start=state)
        if planner in OPTIMAL:
            assert result.cost == optimum, name


def test_start_at_a_goal_state_gives_the_empty_plan(gripper_domain):
    instance = gripper_domain.instance_from_text(gripper_text(1))
    goal_state = validate_plan(instance, astar(instance).plan).final_state
    for planner in PLANNERS.values():
        result = planner(instance, start=goal_state)
        assert result.status is SearchStatus.SOLVED and result.plan == () and result.cost == 0


def test_proven_unsolvable(oneway_domain):
    # The goal wants both balls in roomb and the robot back in rooma: impossible one-way.
    instance = oneway_domain.instance_from_text(gripper_text(2, domain="gripper-oneway", goal_extra="(at-robby rooma)"))
    for planner in PLANNERS.values():
        assert planner(instance).status is SearchStatus.UNSOLVABLE


def test_unsolvable_from_a_dead_end_start(oneway_domain):
    instance = oneway_domain.instance_from_text(gripper_text(2, domain="gripper-oneway"))
    dead_end = instance.apply(instance.initial_state, instance.action("move", ()))[0]
    for planner in PLANNERS.values():
        assert planner(instance, start=dead_end).status is SearchStatus.UNSOLVABLE
    assert_solves(instance, lama_first(instance))


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_time_limit_gives_limit(gripper_domain, clock):
    # on the CPU clock FD's own CPU-time limit stops it: our wall-clock kill would come at 11 s
    instance = gripper_domain.instance_from_text(gripper_text(20))
    result = run_fast_downward(instance, "astar(blind())", time_limit=1, clock=clock)
    assert result.status is SearchStatus.LIMIT and result.plan is None
    assert result.time < 10


def test_memory_limit_gives_limit(gripper_domain):
    instance = gripper_domain.instance_from_text(gripper_text(20))
    result = run_fast_downward(instance, "astar(blind())", memory_limit_mb=64)
    assert result.status is SearchStatus.LIMIT and result.plan is None


def test_concurrent_calls_do_not_clash(gripper_domain, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    instances = [gripper_domain.instance_from_text(gripper_text(n)) for n in (3, 4, 5, 6)]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lama_first, instances))
    for instance, result in zip(instances, results):
        assert_solves(instance, result)
    assert list(tmp_path.iterdir()) == []  # nothing written to the working directory


def test_rejected_input_raises_with_fd_output(tmp_path):
    path = tmp_path / "counter.pddl"
    path.write_text(NUMERIC_DOMAIN)
    instance = Domain(path).instance_from_text(
        "(define (problem c) (:domain counter) (:init (= (count) 0)) (:goal (done)))"
    )
    assert instance.successors(instance.initial_state)  # pymimir is happy with it
    with pytest.raises(RuntimeError, match=r"(?s)TRANSLATE_INPUT_ERROR.*numeric-fluents"):
        lama_first(instance)


def test_bad_configuration_raises(gripper4):
    with pytest.raises(RuntimeError, match=r"(?s)SEARCH_INPUT_ERROR.*nosuch"):
        run_fast_downward(gripper4, "astar(nosuch())")
    with pytest.raises(RuntimeError, match="unknown alias"):
        run_fast_downward(gripper4, "no-such-alias")
    assert is_alias("lama-first") and not is_alias("astar(lmcut())")


def test_start_state_of_another_instance_is_refused(gripper4, gripper_domain):
    other = gripper_domain.instance_from_text(gripper_text(4))
    with pytest.raises(ValueError):
        lama_first(gripper4, start=other.initial_state)


# -- LM-cut --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def evaluators(gripper4, blocks5):
    """Per instance: its evaluator and a goal state (the end of an optimal plan)."""
    out = {}
    for name, instance in (("gripper", gripper4), ("blocks", blocks5)):
        goal_state = validate_plan(instance, astar(instance, heuristic="blind").plan).final_state
        out[name] = (instance, LmcutEvaluator(instance), goal_state)
    return out


@settings(max_examples=25, deadline=None)
@given(which=st.sampled_from(["gripper", "blocks"]), from_goal=st.booleans(),
       steps=st.integers(0, 25), seed=st.integers(0, 2**32 - 1))
def test_lmcut_is_admissible_and_zero_exactly_at_goals(evaluators, which, from_goal, steps, seed):
    instance, evaluator, goal_state = evaluators[which]
    state = walk(instance, steps, seed, start=goal_state if from_goal else None)
    h = evaluator.value(state)
    h_star = breadth_first(instance, start=state).cost  # unit costs: plan length
    assert math.isfinite(h) and h == int(h)
    assert h <= h_star
    assert (h == 0) == instance.is_goal(state)


def test_patched_sas_matches_a_fresh_translation(evaluators):
    # Translating the problem with the state written as its init must give the same value.
    for which in ("gripper", "blocks"):
        instance, evaluator, _ = evaluators[which]
        for seed in range(3):
            state = walk(instance, 6 + seed, seed)
            fresh = instance.domain.instance_from_text(problem_with_initial_state(instance, state))
            assert LmcutEvaluator(fresh).value(fresh.initial_state) == evaluator.value(state)


def test_values_in_order_and_cached(evaluators):
    instance, evaluator, goal_state = evaluators["gripper"]
    states = [walk(instance, k, 11) for k in range(6)] + [goal_state]
    values = evaluator.values(states)
    assert values == [evaluator.value(s) for s in states] and values[-1] == 0
    assert lmcut_value(instance, states[2]) == values[2]
    assert lmcut_evaluator(instance) is lmcut_evaluator(instance)
    assert LmcutEvaluator(instance).values(states, workers=2) == values  # fresh cache, two FD processes at once


def test_lmcut_is_infinite_on_a_dead_end(oneway_domain):
    instance = oneway_domain.instance_from_text(gripper_text(2, domain="gripper-oneway"))
    evaluator = LmcutEvaluator(instance)
    start = instance.initial_state
    after_move = instance.apply(start, instance.action("move", ()))[0]  # both balls left behind
    picked = instance.apply(start, instance.action("pick", ("ball1", "rooma", "left")))[0]
    one_left = instance.apply(picked, instance.action("move", ()))[0]  # ball2 left behind
    both = instance.apply(picked, instance.action("pick", ("ball2", "rooma", "right")))[0]
    carried = instance.apply(both, instance.action("move", ()))[0]  # alive: drop both
    assert evaluator.value(after_move) == math.inf
    assert evaluator.value(one_left) == math.inf
    assert 1 <= evaluator.value(start) <= 5  # pick, pick, move, drop, drop
    assert 1 <= evaluator.value(carried) <= 2


def test_states_the_translation_cannot_express_raise(oneway_domain):
    # The robot starts in roomb and cannot leave: the translator drops (at-robby rooma) as
    # unreachable and (at-robby roomb) as never changing.
    instance = oneway_domain.instance_from_text(
        "(define (problem stuck) (:domain gripper-oneway) (:objects left right - gripper ball1 - ball)"
        " (:init (at-robby roomb) (free left) (free right) (at ball1 roomb)) (:goal (carry ball1 left)))"
    )
    evaluator = LmcutEvaluator(instance)
    assert ("at-robby", ("roomb",)) in evaluator.constant_atoms
    assert evaluator.value(instance.initial_state) == 1
    elsewhere = instance.state_from_atoms(
        [("at-robby", ("rooma",)), ("at", ("ball1", "roomb")), ("free", ("left",)), ("free", ("right",))]
    )
    with pytest.raises(ValueError, match="at-robby rooma"):
        evaluator.value(elsewhere)
    nowhere = instance.state_from_atoms([("at", ("ball1", "roomb")), ("free", ("left",)), ("free", ("right",))])
    with pytest.raises(ValueError, match="always true"):
        evaluator.value(nowhere)


def test_trivially_unsolvable_translation_gives_infinity(oneway_domain):
    # Robot in roomb, balls in rooma: the translator proves the goal relaxed-unreachable.
    instance = oneway_domain.instance_from_text(gripper_text(2, domain="gripper-oneway", robot="roomb"))
    evaluator = LmcutEvaluator(instance)
    assert evaluator.trivial_value == math.inf
    assert evaluator.value(instance.initial_state) == math.inf


def test_names_with_capitals(blocks_domain):
    # PDDL names are case-insensitive: instances keep them lower-cased, as FD and pymimir's file
    # parser do, and plans and LM-cut work on them.
    instance = blocks_domain.instance_from_text(
        "(define (problem caps) (:domain blocksworld) (:objects A B)"
        " (:init (arm-empty) (on-table A) (on-table B) (clear A) (clear B)) (:goal (and (on A B))))"
    )
    result = lama_first(instance)
    assert result.status is SearchStatus.SOLVED
    assert [str(a) for a in result.plan] == ["(pickup a)", "(stack a b)"]
    state = instance.initial_state
    for action in result.plan:
        assert instance.is_applicable(state, action)
        state = instance.apply(state, action)[0]
    assert instance.is_goal(state)
    assert LmcutEvaluator(instance).value(instance.initial_state) == 2
