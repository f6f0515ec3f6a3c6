"""Verification explores every compatible transition: closed, safe and acyclic, or a witness."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.generation import domain_folder
from stratpol.planning import Domain
from stratpol.planning.dead_ends import Solvability, solvability
from stratpol.planning.symmetry import canonical_key
from stratpol.policy import Change, Feature, Kind, Policy, Rule
from stratpol.policy.text import parse_policy, read_policy
from stratpol.verification import Failure, verify

GOLDEN = Path(__file__).parent / "data" / "golden"
H = Feature("H", Kind.NUMERICAL, "n_count(c_primitive(holding,0))")
N = Feature("n", Kind.NUMERICAL, "n_count(c_some(r_transitive_closure(r_primitive(on,0,1)),c_primitive(clear_g,0)))")
PICK = Rule.of({"H": False, "n": True}, {"H": Change.UP, "n": Change.DOWN})
CLEAR = Policy.of([H, N], [PICK, Rule.of({"H": True}, {"H": Change.DOWN})])
CLEAR_BAD = Policy.of([H, N], [PICK, Rule.of({"H": True}, {"H": Change.DOWN, "n": Change.ANY})])


def _clear_instance(domain, towers: list[list[str]], target: str):
    blocks = [b for tower in towers for b in tower]
    facts = []
    for tower in towers:
        facts.append(f"(on-table {tower[0]})")
        facts += [f"(on {upper} {lower})" for lower, upper in zip(tower, tower[1:])]
        facts.append(f"(clear {tower[-1]})")
    return domain.instance_from_text(
        f"(define (problem c) (:domain blocksworld) (:objects {' '.join(blocks)})"
        f" (:init (arm-empty) {' '.join(facts)}) (:goal (clear {target})))")


@pytest.fixture(scope="module")
def blocks():
    domain = domain_folder("blocksworld").domain
    return domain, Vocabulary(domain, goal_predicates=["clear"])


@pytest.mark.parametrize("towers", [[["a", "b"]], [["a", "b", "c", "d"]], [["a", "b", "c"], ["d", "e"]]])
def test_blocks_clear_policy_solves(blocks, towers):
    domain, vocabulary = blocks
    instance = _clear_instance(domain, towers, "a")
    result = verify(instance, PolicyEvaluator(CLEAR, vocabulary).on(instance).compatible_successors)
    assert result.solved, result.describe()


def test_blocks_clear_variant_with_n_unknown_has_a_cycle(blocks):
    domain, vocabulary = blocks
    instance = _clear_instance(domain, [["a", "b", "c"], ["d"]], "a")
    policy = PolicyEvaluator(CLEAR_BAD, vocabulary).on(instance)
    result = verify(instance, policy.compatible_successors)
    assert not result.solved and result.failure is Failure.CYCLE
    path = result.witness
    assert path[0] == instance.initial_state and path[-1] in path[:-1]
    for before, after in zip(path, path[1:]):  # the witness is a real policy trajectory
        assert after in [s.state for s in policy.compatible_successors(before)]


def test_a_policy_that_stops_early_is_not_closed(blocks):
    domain, vocabulary = blocks
    instance = _clear_instance(domain, [["a", "b", "c"]], "a")
    only_pick = Policy.of([H, N], [PICK])
    result = verify(instance, PolicyEvaluator(only_pick, vocabulary).on(instance).compatible_successors)
    assert result.failure is Failure.NOT_CLOSED and len(result.witness) == 2  # holding c, nothing to do


def test_reaching_a_dead_end_is_reported_as_such():
    oneway = Domain(Path(__file__).parent / "data" / "gripper-oneway.pddl")
    instance = oneway.instance_from_text(
        "(define (problem o) (:domain gripper-oneway) (:objects left right - gripper b1 - ball)"
        " (:init (at-robby rooma) (free left) (free right) (at b1 rooma)) (:goal (at b1 roomb)))")
    # a "policy" that moves first: the robot leaves the ball behind for good
    move_first = lambda state: [s for s in instance.successors(state) if s.action.name == "move-to-b"]  # noqa: E731
    result = verify(instance, move_first)
    assert result.failure is Failure.DEAD_END and len(result.witness) == 2


@pytest.mark.parametrize("balls", [1, 2, 5, 8])
def test_the_gripper_policy_solves_gripper(balls):
    folder = domain_folder("gripper")
    policy = read_policy(GOLDEN / "gripper.policy")
    instance = folder.domain.instance_from_text(folder.generator(balls=balls))
    on_instance = PolicyEvaluator(policy, Vocabulary(folder.domain)).on(instance)
    assert verify(instance, on_instance.compatible_successors).solved


def test_state_limit(blocks):
    domain, vocabulary = blocks
    instance = _clear_instance(domain, [["a", "b", "c", "d", "e"]], "a")
    result = verify(instance, PolicyEvaluator(CLEAR, vocabulary).on(instance).compatible_successors, max_states=2)
    assert result.failure is Failure.LIMIT


ONEWAY = Domain(Path(__file__).parent / "data" / "gripper-oneway.pddl")
TWO_BALLS = ONEWAY.instance_from_text(
    "(define (problem o2) (:domain gripper-oneway) (:objects left right - gripper b1 b2 - ball)"
    " (:init (at-robby rooma) (free left) (free right) (at b1 rooma) (at b2 rooma))"
    " (:goal (and (at b1 roomb) (at b2 roomb))))")


def _some_successors(seed: int):
    """A policy by lot: each transition kept or not by a hash of the seed and the transition. By
    seed modulo 3: nothing else; no ball dropped in rooma or picked in roomb (no cycles hide the
    rest); and no move before both grippers hold a ball as well (often a solution)."""
    def kept(state, successor) -> bool:
        action = str(successor.action)
        going_back = ("drop" in action and "rooma" in action) or ("pick" in action and "roomb" in action)
        early_move = "move" in action and any(atom[0] == "free" for atom in state.atoms)
        return (zlib.crc32(f"{seed} {state.index} {action}".encode()) % 4 != 0
                and not (going_back and seed % 3 > 0) and not (early_move and seed % 3 == 2))

    return lambda state: [s for s in TWO_BALLS.successors(state) if kept(state, s)]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_dead_ends_tested_on_the_witness_only_give_the_verdict_of_the_definition(seed):
    _check_against_the_definition(TWO_BALLS, _some_successors(seed))


GRIPPER = domain_folder("gripper")


def _gripper_variant(seed: int) -> Policy:
    """The gripper policy with each rule kept, dropped or relaxed (its decreases made "may
    change") by the digits of `seed` in base 3: solved, not closed or cyclic."""
    lines = (GOLDEN / "gripper.policy").read_text().splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("{")]
    for i in rules:
        seed, choice = divmod(seed, 3)
        lines[i] = {0: lines[i], 1: "", 2: lines[i].replace(" down", "?")}[choice]
    return parse_policy("\n".join(lines) + "\n")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 3 ** 4 - 1), balls=st.integers(2, 4))
def test_verification_over_renamings_gives_the_verdict_of_the_definition(seed, balls):
    """Balls and grippers are interchangeable in gripper; a rule policy cannot tell them apart."""
    instance = GRIPPER.domain.instance_from_text(GRIPPER.generator(balls=balls))
    key = canonical_key(instance)
    assert key is not None
    compatible = PolicyEvaluator(_gripper_variant(seed), Vocabulary(GRIPPER.domain)).on(instance).compatible_successors
    reduced = _check_against_the_definition(instance, compatible, key)
    assert reduced.states <= verify(instance, compatible).states


def _check_against_the_definition(instance, compatible, canonical=None):
    """Verification (dead ends tested on the witness) agrees with closed, safe and acyclic over
    every policy-reachable state, and its witness is a policy trajectory that shows the failure."""
    dead = {}

    def is_dead_end(state):
        if state not in dead:
            dead[state] = solvability(instance, state) is Solvability.DEAD_END
        return dead[state]

    reached, frontier, edges = {instance.initial_state}, [instance.initial_state], {}
    while frontier:  # goals are not expanded
        state = frontier.pop()
        edges[state] = [] if instance.is_goal(state) else [s.state for s in compatible(state)]
        for target in edges[state]:
            if target not in reached:
                reached.add(target)
                frontier.append(target)
    closed = all(edges[s] or instance.is_goal(s) for s in reached)
    safe = not any(is_dead_end(s) for s in reached)
    acyclic = _acyclic(edges)
    result = verify(instance, compatible, is_dead_end=is_dead_end, canonical=canonical)
    assert result.solved == (closed and safe and acyclic)
    if result.solved:
        return result
    witness = result.witness
    assert witness[0] == instance.initial_state
    for before, after in zip(witness, witness[1:]):  # a real policy trajectory
        assert after in edges[before]
    if result.failure is Failure.DEAD_END:  # it ends at the first dead end the policy walks into
        assert is_dead_end(witness[-1]) and not any(is_dead_end(s) for s in witness[:-1])
    else:
        assert not any(is_dead_end(s) for s in witness)
    if result.failure is Failure.NOT_CLOSED:
        assert not edges[witness[-1]] and not instance.is_goal(witness[-1])
    if result.failure is Failure.CYCLE:
        assert not acyclic
    return result


def _acyclic(edges) -> bool:
    colour = {}

    def visit(state) -> bool:
        colour[state] = "open"
        for target in edges[state]:
            if colour.get(target) == "open" or (target not in colour and not visit(target)):
                return False
        colour[state] = "done"
        return True
    return all(visit(s) for s in list(edges) if s not in colour)


HIKING = domain_folder("hiking")


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 3 ** 11 - 1))
def test_verification_over_renamings_of_blocks_gives_the_verdict_without_them(seed):
    """Hiking's couples swap only with their persons (blocks of three objects); variants of a
    hiking policy (rules kept, dropped or relaxed) get the same verdict over renamings of cars,
    tents and couples as over states, in fewer states, with a witness the policy follows."""
    lines = (Path(__file__).parent / "data" / "hiking-unverified.policy").read_text().splitlines()
    for i in [i for i, line in enumerate(lines) if line.startswith("{")]:
        seed, choice = divmod(seed, 3)
        lines[i] = {0: lines[i], 1: "", 2: lines[i].replace(" down", "?")}[choice]
    instance = HIKING.domain.instance_from_text(HIKING.generator(couples=2, cars=2, places=2))
    compatible = PolicyEvaluator(parse_policy("\n".join(lines) + "\n"),
                                 Vocabulary(HIKING.domain)).on(instance).compatible_successors
    whole = verify(instance, compatible)
    reduced = verify(instance, compatible, canonical=canonical_key(instance))
    assert (reduced.solved, reduced.failure) == (whole.solved, whole.failure)
    assert reduced.states <= whole.states
    for before, after in zip(reduced.witness, reduced.witness[1:]):
        assert after in [s.state for s in compatible(before)]
