"""The readable policy format and dlplan's format: round trips, errors, a golden file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.errors import InputError
from stratpol.features import Vocabulary
from stratpol.generation import domain_folder
from stratpol.policy import Change, Feature, Kind, Policy, Rule
from stratpol.policy.dlplan_format import format_dlplan, parse_dlplan
from stratpol.policy.text import format_policy, parse_policy, read_policy, write_policy

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"

# The paper's Gripper policy (section 5.1) on our typed gripper, where rooms are objects:
# n counts balls lying in a room that is not their goal room, m counts held balls, A says
# the robot is not in a room that is some ball's goal.
GRIPPER = Policy.of(
    [
        Feature("A", Kind.BOOLEAN, "b_empty(c_and(c_primitive(at-robby,0),c_some(r_primitive(at_g,1,0),c_top)))"),
        Feature("m", Kind.NUMERICAL, "n_count(r_primitive(carry,0,1))"),
        Feature("n", Kind.NUMERICAL, "n_count(c_and(c_not(c_equal(r_primitive(at,0,1),r_primitive(at_g,0,1))),"
                                   "c_some(r_primitive(at,0,1),c_top)))"),
    ],
    [
        Rule.of({"n": True}, {"n": Change.DOWN, "m": Change.ANY}),
        Rule.of({"m": True}, {"m": Change.DOWN}),
        Rule.of({"A": True, "m": True}, {"A": Change.DOWN}),
        Rule.of({"A": False, "m": False}, {"A": Change.UP}),
    ],
)


def test_readable_text_of_the_gripper_policy_is_stable():
    assert format_policy(GRIPPER) == (GOLDEN / "gripper.policy").read_text()


def test_readable_round_trip(tmp_path):
    path = tmp_path / "gripper.policy"
    write_policy(path, GRIPPER)
    assert read_policy(path) == GRIPPER


names = st.sampled_from(["a", "b", "n", "m"])


@st.composite
def policies(draw):
    chosen = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    features = [Feature(n, draw(st.sampled_from(list(Kind)))) for n in chosen]
    rules = []
    for _ in range(draw(st.integers(0, 5))):
        conditions = draw(st.dictionaries(st.sampled_from(chosen), st.booleans()))
        effects = draw(st.dictionaries(st.sampled_from(chosen), st.sampled_from(list(Change))))
        rules.append(Rule.of(conditions, effects))
    return Policy.of(features, rules)


@settings(max_examples=200)
@given(policies())
def test_readable_round_trip_of_any_policy(policy):
    assert parse_policy(format_policy(policy)) == policy


@pytest.mark.parametrize("text, message", [
    ("boolean H\n{H} -> {H up}", "line 2: 'H up' does not fit boolean feature H"),
    ("numerical n\n{n} -> {}", "line 2: 'n' does not fit numerical feature n"),
    ("numerical n\n{x > 0} -> {}", "line 2: unknown feature 'x'"),
    ("boolean H\n{H, not H} -> {}", "line 2: a feature appears twice in one condition"),
    ("boolean H\nH -> H", "line 2: expected"),
])
def test_readable_format_errors_name_the_line(text, message):
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace("{", r"\{")):
        parse_policy(text, "p.policy")


@pytest.fixture(scope="module")
def gripper_vocabulary():
    return Vocabulary(domain_folder("gripper").domain)


def test_dlplan_round_trip(gripper_vocabulary):
    factory = gripper_vocabulary.factory
    text = format_dlplan(GRIPPER, factory)
    assert text.startswith("(:policy")
    back = parse_dlplan(text, factory)
    assert set(back.features) == set(GRIPPER.features) and set(back.rules) == set(GRIPPER.rules)
    again = parse_dlplan(format_dlplan(back, factory), factory)  # dlplan prints rules in its own order
    assert again == back


def test_dlplan_and_stratpol_agree_on_compatibility(gripper_vocabulary):
    from dlplan.policy import PolicyFactory

    from stratpol.features.table import FeatureTable
    from stratpol.features.pool import parse_feature

    folder = domain_folder("gripper")
    instance = folder.domain.instance_from_text(folder.generator(balls=3))
    bridge = gripper_vocabulary.bridge(instance)
    dlplan_policy = PolicyFactory(gripper_vocabulary.factory).parse_policy(format_dlplan(GRIPPER, gripper_vocabulary.factory))
    features = [parse_feature(gripper_vocabulary, f.kind, f.description) for f in GRIPPER.features]
    frontier, seen, checked = [instance.initial_state], {instance.initial_state}, 0
    while frontier:
        state = frontier.pop()
        for _, target, _ in instance.successors(state):
            table = FeatureTable.evaluate(features, [(bridge, state), (bridge, target)])
            source, after = ({f.name: int(v) for f, v in zip(GRIPPER.features, row)} for row in table.values)
            ours = GRIPPER.accepts(source, after)
            theirs = dlplan_policy.evaluate(bridge.state(state), bridge.state(target), gripper_vocabulary.caches) is not None
            assert ours == theirs, (state, target)
            checked += 1
            if target not in seen:
                seen.add(target)
                frontier.append(target)
    assert checked > 300
