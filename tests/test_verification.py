"""Verification explores every compatible transition: closed, safe and acyclic, or a witness."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.generation import domain_folder
from stratpol.planning import Domain
from stratpol.policy import Change, Feature, Kind, Policy, Rule
from stratpol.policy.text import read_policy
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
