"""The constructors of ours beyond dlplan's, which read a ternary predicate as one role per object:
the indexed role distance (each agent walks its own roads, where dlplan's role distance can only walk
every agent's roads together) and the indexed meets (the holders of a pending pair)."""

from __future__ import annotations

import pytest

from stratpol.features import Vocabulary
from stratpol.features.expression import fluent_predicates_read
from stratpol.features.kind import Kind
from stratpol.features.mimir_evaluation import MimirFeatures, StateEvaluation
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.features.pool import parse_feature
from stratpol.features.role_distance import DLPLAN_INFINITY
from stratpol.features.table import FeatureTable
from stratpol.planning import Domain
from stratpol.policy import Change, Feature, Policy, Rule
from stratpol.policy.dlplan_format import write_policy_files
from stratpol.policy.renaming import rename_predicates

DOMAIN = """(define (domain agents) (:requirements :strips :typing)
 (:types agent place)
 (:predicates (at ?a - agent ?p - place) (road ?a - agent ?from - place ?to - place)
              (target ?p - place) (open ?a - agent ?from - place ?to - place))
 (:action move :parameters (?a - agent ?from - place ?to - place)
  :precondition (and (at ?a ?from) (road ?a ?from ?to))
  :effect (and (not (at ?a ?from)) (at ?a ?to)))
 (:action close :parameters (?a - agent ?from - place ?to - place)
  :precondition (open ?a ?from ?to) :effect (not (open ?a ?from ?to))))"""
# a's roads lead from p1 to the target p3 through p2; b's roads go p4-p1-p3: along both agents'
# roads together a is one step from p3, along its own two
PROBLEM = """(define (problem two) (:domain agents)
 (:objects a b - agent p1 p2 p3 p4 - place)
 (:init (at a p1) (at b p4) (target p3)
        (road a p1 p2) (road a p2 p1) (road a p2 p3) (road a p3 p2)
        (road b p4 p1) (road b p1 p4) (road b p1 p3) (road b p3 p1)
        (open a p1 p2) (open a p2 p3) (open b p4 p1) (open b p1 p3))
 (:goal (at a p3)))"""
TARGET = "r_restrict(r_top,c_primitive(target,0))"
OWN = f"n_indexed_role_distance(r_primitive(at,0,1),road,{TARGET})"
SHARED = f"n_role_distance(r_primitive(at,0,1),r_primitive(road_1_2,0,1),{TARGET})"


def _domain_and_problem(folder, domain_text: str, problem_text: str) -> tuple:
    """(domain, instance, vocabulary) of the two texts, written to `folder`."""
    (folder / "domain.pddl").write_text(domain_text)
    (folder / "p.pddl").write_text(problem_text)
    domain = Domain(folder / "domain.pddl")
    return domain, domain.load_instance(folder / "p.pddl"), Vocabulary(domain)


@pytest.fixture(scope="module")
def agents(tmp_path_factory):
    return _domain_and_problem(tmp_path_factory.mktemp("agents"), DOMAIN, PROBLEM)


def _first_states(instance, count: int) -> list:
    """The first `count` states of a breadth-first walk from the initial state."""
    states, index = [instance.initial_state], 0
    seen = set(states)
    while index < len(states) and len(states) < count:
        for successor in instance.successors(states[index]):
            if successor.state not in seen:
                seen.add(successor.state)
                states.append(successor.state)
        index += 1
    return states[:count]


def _step(instance, state, action: str):
    return next(s.state for s in instance.successors(state) if str(s.action) == action)


def test_each_agent_walks_its_own_roads(agents):
    domain, instance, vocabulary = agents
    own, shared = (parse_feature(vocabulary, Kind.NUMERICAL, d) for d in (OWN, SHARED))
    bridge = vocabulary.bridge(instance)
    start = instance.initial_state
    middle = _step(instance, start, "(move a p1 p2)")
    values = FeatureTable.evaluate([own, shared], [(bridge, start), (bridge, middle)]).values
    # a's first step home brings it closer along its own roads; along all roads it was one away
    assert values.tolist() == [[2, 1], [1, 1]]
    assert own.complexity == shared.complexity
    assert own.description == OWN
    assert fluent_predicates_read(OWN, domain) == {"at"}


def test_dlplan_and_pymimir_agree_on_every_reachable_state(agents):
    domain, instance, vocabulary = agents
    open_roads = f"n_indexed_role_distance(r_primitive(at,0,1),open,{TARGET})"
    features = [parse_feature(vocabulary, Kind.NUMERICAL, d) for d in (OWN, open_roads)]
    fast = [MimirFeatures(domain).feature(Kind.NUMERICAL, f.description) for f in features]
    states = _first_states(instance, 400)
    bridge = vocabulary.bridge(instance)
    table = FeatureTable.evaluate(features, [(bridge, s) for s in states]).values
    by_pymimir = [[f(StateEvaluation(s)) for f in fast] for s in states]
    assert table.tolist() == by_pymimir
    # a fluent predicate's roads are read from each state: closing roads lengthens distances
    assert {row[1] for row in by_pymimir} == {0, 1, 2, DLPLAN_INFINITY}
    assert fluent_predicates_read(open_roads, domain) == {"at", "open"}


def test_a_policy_on_own_roads_moves_each_agent_home_where_the_shared_roads_stop_it(agents, tmp_path):
    _, instance, vocabulary = agents
    policy = Policy.of([Feature("n0", Kind.NUMERICAL, OWN)], [Rule.of({"n0": True}, {"n0": Change.DOWN})], "agents")
    evaluator = PolicyEvaluator(policy, vocabulary)
    assert evaluator.dlplan_features == []  # pymimir evaluates it
    on = evaluator.on(instance)
    first = on.compatible_successors(instance.initial_state)
    assert sorted(str(s.action) for s in first) == ["(move a p1 p2)", "(move b p4 p1)"]
    (second,) = on.compatible_successors(_step(instance, instance.initial_state, "(move a p1 p2)"))
    assert instance.is_goal(second.state)
    # along the shared roads no agent's first step home shortens the distance: no rule applies
    shared = Policy.of([Feature("n0", Kind.NUMERICAL, SHARED)], policy.rules, "agents")
    assert PolicyEvaluator(shared, vocabulary).on(instance).compatible_successors(instance.initial_state) == []
    (tmp_path / "p.policy.dlplan").write_text("stale")
    reason = write_policy_files(tmp_path / "p.policy", policy, vocabulary.factory)
    assert "dlplan has no constructor for feature(s) n0" in reason
    assert (tmp_path / "p.policy").is_file() and not (tmp_path / "p.policy.dlplan").exists()


def test_the_roads_must_be_a_ternary_predicate_and_the_feature_numerical(agents):
    _, _, vocabulary = agents
    with pytest.raises(ValueError, match="not a predicate of arity 3 of agents"):
        parse_feature(vocabulary, Kind.NUMERICAL, f"n_indexed_role_distance(r_primitive(at,0,1),at,{TARGET})")
    with pytest.raises(ValueError, match="is a numerical feature, not a Boolean one"):
        parse_feature(vocabulary, Kind.BOOLEAN, OWN)


def test_renaming_renames_the_roads():
    policy = Policy.of([Feature("n0", Kind.NUMERICAL, OWN)], [])
    renamed = rename_predicates(policy, {"road": "can_traverse", "target": "goal"})
    assert renamed.features[0].description == \
        "n_indexed_role_distance(r_primitive(at,0,1),can_traverse,r_restrict(r_top,c_primitive(goal,0)))"


IMAGES = """(define (domain images) (:requirements :strips :typing)
 (:types agent objective mode)
 (:predicates (have ?a - agent ?o - objective ?m - mode) (sent ?o - objective ?m - mode))
 (:action take :parameters (?a - agent ?o - objective ?m - mode)
  :precondition (and) :effect (have ?a ?o ?m))
 (:action send :parameters (?a - agent ?o - objective ?m - mode)
  :precondition (have ?a ?o ?m) :effect (and (sent ?o ?m) (not (have ?a ?o ?m)))))"""
# a holds o1 in m1 and o2 in m2; the goal asks for o1 in m2, which nobody holds
IMAGES_PROBLEM = """(define (problem one) (:domain images)
 (:objects a b - agent o1 o2 - objective m1 m2 - mode)
 (:init (have a o1 m1) (have a o2 m2))
 (:goal (sent o1 m2)))"""
PENDING = "r_diff(r_primitive(sent_g,0,1),r_primitive(sent,0,1))"
HOLDERS = f"c_indexed_meets(have,{PENDING})"
# the holders as the binary projections of have see them: an objective of a pending pair, and a mode
PROJECTED = (f"c_and(c_some(r_primitive(have_0_1,0,1),c_some({PENDING},c_top)),"
             f"c_some(r_primitive(have_0_2,0,1),c_some(r_inverse({PENDING}),c_top)))")


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    return _domain_and_problem(tmp_path_factory.mktemp("images"), IMAGES, IMAGES_PROBLEM)


def test_indexed_meets_pairs_each_holder_with_its_own_images(images):
    domain, instance, vocabulary = images
    exact, projected = (parse_feature(vocabulary, Kind.NUMERICAL, f"n_count({c})") for c in (HOLDERS, PROJECTED))
    bridge = vocabulary.bridge(instance)
    start = instance.initial_state
    taken = _step(instance, start, "(take b o1 m2)")
    sent = _step(instance, taken, "(send b o1 m2)")
    values = FeatureTable.evaluate([exact, projected], [(bridge, s) for s in (start, taken, sent)]).values
    # a holds o1 and m2, in two images: the projections count it as a holder of (o1, m2)
    assert values.tolist() == [[0, 1], [1, 2], [0, 0]]
    assert exact.description == f"n_count({HOLDERS})"
    assert exact.complexity == 2 + parse_feature(vocabulary, Kind.NUMERICAL, f"n_count({PENDING})").complexity
    assert fluent_predicates_read(exact.description, domain) == {"have", "sent"}


def test_features_around_own_constructors_agree_with_pymimir(images):
    # pymimir evaluates their leaves here
    domain, instance, vocabulary = images
    descriptions = [
        (Kind.NUMERICAL, f"n_count({HOLDERS})"),
        (Kind.NUMERICAL, f"n_count(r_inverse(r_restrict(r_top,c_not({HOLDERS}))))"),
        (Kind.NUMERICAL, f"n_count(r_restrict(r_inverse(r_restrict(r_top,{HOLDERS})),c_primitive(objective,0)))"),
        (Kind.NUMERICAL, f"n_count(r_compose(r_inverse(r_restrict(r_top,{HOLDERS})),r_primitive(sent,0,1)))"),
        (Kind.NUMERICAL, f"n_count(r_or(r_and(r_top,r_restrict(r_top,{HOLDERS})),r_diff({PENDING},r_top)))"),
        (Kind.NUMERICAL, f"n_count(c_all(r_restrict(r_top,c_primitive(agent,0)),c_or({HOLDERS},c_some(r_top,{HOLDERS}))))"),
        (Kind.BOOLEAN, f"b_empty(c_diff(c_primitive(agent,0),{HOLDERS}))"),
    ]
    features = [parse_feature(vocabulary, kind, d) for kind, d in descriptions]
    fast = [MimirFeatures(domain).feature(kind, d) for kind, d in descriptions]
    states = _first_states(instance, 300)
    bridge = vocabulary.bridge(instance)
    table = FeatureTable.evaluate(features, [(bridge, s) for s in states]).values
    by_pymimir = [[f(StateEvaluation(s)) for f in fast] for s in states]
    assert table.tolist() == by_pymimir
    assert all(len({row[i] for row in by_pymimir}) > 1 for i in range(len(descriptions)))  # none is constant


def test_a_constructor_of_dlplan_that_cannot_take_ours_is_an_error(images):
    _, _, vocabulary = images
    with pytest.raises(ValueError, match="n_concept_distance cannot take an argument built with"):
        parse_feature(vocabulary, Kind.NUMERICAL, f"n_concept_distance({HOLDERS},r_top,c_top)")
    with pytest.raises(ValueError, match="sent in .* is not a predicate of arity 3 of images"):
        parse_feature(vocabulary, Kind.NUMERICAL, "n_count(c_indexed_meets(sent,r_top))")
    with pytest.raises(ValueError, match="is a Boolean feature, not a numerical one"):
        parse_feature(vocabulary, Kind.NUMERICAL, f"b_empty({HOLDERS})")


def _dlplan_and_pymimir_values(domain, instance, vocabulary, descriptions, count: int) -> tuple[list, list]:
    """Each numerical feature's values by dlplan and by pymimir on the first `count` states."""
    features = [parse_feature(vocabulary, Kind.NUMERICAL, d) for d in descriptions]
    fast = [MimirFeatures(domain).feature(Kind.NUMERICAL, d) for d in descriptions]
    states = _first_states(instance, count)
    bridge = vocabulary.bridge(instance)
    by_dlplan = FeatureTable.evaluate(features, [(bridge, s) for s in states]).values.tolist()
    return by_dlplan, [[f(StateEvaluation(s)) for f in fast] for s in states]


def test_pymimir_reads_the_projections_of_a_ternary_predicate_from_its_own_roles(images, agents):
    # pymimir has no projections p_i_j; a policy run reads them from p's own roles, not from dlplan
    domain, instance, vocabulary = images
    descriptions = [
        f"n_count({PROJECTED})",
        "n_count(r_primitive(have_1_2,0,1))",
        f"n_count(r_and(r_primitive(have_1_2,0,1),{PENDING}))",
        "n_count(r_compose(r_primitive(have_0_2,1,0),r_primitive(have_0_1,0,1)))",
        "n_count(c_or(c_primitive(have_1_2,1),c_primitive(have_0_2,0)))",
    ]
    by_dlplan, by_pymimir = _dlplan_and_pymimir_values(domain, instance, vocabulary, descriptions, 300)
    assert by_dlplan == by_pymimir
    assert all(len({row[i] for row in by_pymimir}) > 1 for i in range(len(descriptions)))
    policy = Policy.of([Feature(f"n{i}", Kind.NUMERICAL, d) for i, d in enumerate(descriptions)], [], "images")
    assert PolicyEvaluator(policy, vocabulary).dlplan_features == []
    assert fluent_predicates_read(descriptions[2], domain) == {"have", "sent"}
    # a static predicate's projection, under dlplan's role distance
    domain, instance, vocabulary = agents
    by_dlplan, by_pymimir = _dlplan_and_pymimir_values(domain, instance, vocabulary, [SHARED, OWN], 400)
    assert by_dlplan == by_pymimir
    assert fluent_predicates_read(SHARED, domain) == {"at"}


def test_a_targets_projections_and_own_roles_made_from_its_sources_agree_with_dlplan(images):
    # a policy run evaluates a transition's target with its source's evaluation: where the
    # transition only adds atoms of `have` (take), the target's projections and own roles of have
    # are made from the source's; where it deletes one (send), anew
    domain, instance, vocabulary = images
    descriptions = [f"n_count({PROJECTED})", f"n_count({HOLDERS})",
                    f"n_count(r_and(r_primitive(have_1_2,0,1),{PENDING}))",
                    "n_count(r_compose(r_primitive(have_0_2,1,0),r_primitive(have_0_1,0,1)))"]
    dlplan = [parse_feature(vocabulary, Kind.NUMERICAL, d) for d in descriptions]
    fast = [MimirFeatures(domain).feature(Kind.NUMERICAL, d) for d in descriptions]
    bridge = vocabulary.bridge(instance)
    transitions = [(source, successor) for source in _first_states(instance, 120)
                   for successor in instance.successors(source)]
    assert {t.action.name for _, t in transitions} == {"take", "send"}
    for source, successor in transitions:
        from_source = StateEvaluation(source)
        assert [f(from_source) for f in fast] == [int(f.element.evaluate(bridge.convert(source))) for f in dlplan]
        to_target = StateEvaluation(successor.state, from_source)
        expected = [int(f.element.evaluate(bridge.convert(successor.state))) for f in dlplan]
        assert [f(to_target) for f in fast] == expected, (successor.action, expected)
