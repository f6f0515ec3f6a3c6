"""The in-process planners: plans validate, optimal ones are optimal, limits and proofs are honest."""

from __future__ import annotations

import pytest
from helpers import blocks_instance, blocks_text, gripper_instance, oneway_instance

from stratpol.planning import search
from stratpol.planning.plans import validate_plan
from stratpol.planning.search import SearchStatus

IN_PROCESS = [search.siw, search.gbfs, search.astar, search.breadth_first,
              lambda i, **kw: search.astar(i, heuristic="blind", **kw)]


def gripper_optimum(balls: int) -> int:
    # each trip carries two balls: 2 actions per ball for pick and drop, then 2*trips - 1 moves
    trips = (balls + 1) // 2
    return 2 * balls + 2 * trips - 1


@pytest.mark.parametrize("planner", IN_PROCESS)
def test_plans_validate_on_gripper_and_blocksworld(planner, gripper, blocksworld):
    for instance in (gripper_instance(gripper, 4), blocks_instance(blocksworld, 5, seed=7)):
        result = planner(instance, time_limit=30)
        assert result.status is SearchStatus.SOLVED, (instance.name, result)
        check = validate_plan(instance, result.plan)
        assert check.valid and check.cost == result.cost


@pytest.mark.parametrize("balls", [1, 2, 3, 4, 5])
def test_optimal_planners_find_the_known_gripper_optimum(balls, gripper):
    instance = gripper_instance(gripper, balls)
    for planner in (search.astar, search.breadth_first):
        assert planner(instance).cost == gripper_optimum(balls)


def test_reversing_a_tower_moves_each_block_once(blocksworld):
    # tower a on b on c on d (d on the table) becomes d on c on b on a. Every block must move
    # and a move is two actions (unstack/pickup, then stack/putdown), so 8 is a lower bound;
    # a to the table, then b onto a, c onto b, d onto c achieves it.
    blocks = ["a", "b", "c", "d"]
    init = ["(on-table d)", "(on c d)", "(on b c)", "(on a b)", "(clear a)"]
    goal = ["(on-table a)", "(on b a)", "(on c b)", "(on d c)"]
    instance = blocksworld.instance_from_text(blocks_text(init, goal, blocks))
    assert search.astar(instance).cost == 8
    assert search.breadth_first(instance).cost == 8


def test_search_from_any_start_state(gripper):
    instance = gripper_instance(gripper, 3)
    state = instance.initial_state
    for _ in range(3):  # pick ball1, pick ball2, move to roomb
        state = next(s.state for s in instance.successors(state) if s.state != state and s.action.name != "drop")
    for planner in IN_PROCESS:
        result = planner(instance, start=state)
        assert result.solved and validate_plan(instance, result.plan, start=state).valid


def test_state_limit_is_a_limit_not_a_proof(gripper):
    result = search.breadth_first(gripper_instance(gripper, 6), state_limit=50)
    assert result.status is SearchStatus.LIMIT and result.plan is None


def test_time_limit_stops_the_width_searches(gripper):
    result = search.siw(gripper_instance(gripper, 60), time_limit=0.05)
    assert result.status is SearchStatus.LIMIT
    assert result.time < 5


def test_incomplete_planner_failing_says_failed_not_unsolvable(gripper):
    # IW(1) cannot solve gripper with several balls: that proves nothing about the instance
    result = search.iw(gripper_instance(gripper, 4), width=1)
    assert result.status is SearchStatus.FAILED


def test_complete_planners_prove_unsolvability(oneway):
    instance = oneway_instance(oneway, 2)
    dead = next(s.state for s in instance.successors(instance.initial_state) if s.action.name == "move-to-b")
    for planner in (search.gbfs, search.astar, search.breadth_first):
        assert planner(instance, start=dead).status is SearchStatus.UNSOLVABLE
    assert search.siw(instance, start=dead).status is not SearchStatus.UNSOLVABLE


def test_start_state_of_another_instance_is_rejected(gripper):
    with pytest.raises(ValueError, match="another instance"):
        search.gbfs(gripper_instance(gripper, 2), start=gripper_instance(gripper, 2).initial_state)


def test_heuristic_values(gripper, oneway):
    instance = gripper_instance(gripper, 2)
    assert search.heuristic_value(instance, instance.initial_state, "blind") == 0
    # drop needs carry (one pick) and at-robby roomb (one move), reached in parallel: 1 + 1
    assert search.heuristic_value(instance, instance.initial_state, "hmax") == 2
    stuck = oneway_instance(oneway, 1)
    dead = next(s.state for s in stuck.successors(stuck.initial_state) if s.action.name == "move-to-b")
    assert search.heuristic_value(stuck, dead, "ff") == float("inf")
