"""Compatibility of transitions with rules (section 3.4) and projection."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratpol.policy import Change, Feature, Kind, Policy, Rule, accepts, project

KINDS = {"H": Kind.BOOLEAN, "n": Kind.NUMERICAL}
PICK = Rule.of({"H": False, "n": True}, {"H": Change.UP, "n": Change.DOWN})
PUT = Rule.of({"H": True}, {"H": Change.DOWN})


@pytest.mark.parametrize("source, target, expected", [
    ({"H": 0, "n": 2}, {"H": 1, "n": 1}, True),
    ({"H": 0, "n": 2}, {"H": 1, "n": 0}, True),
    ({"H": 0, "n": 2}, {"H": 1, "n": 2}, False),   # n must go down
    ({"H": 0, "n": 2}, {"H": 1, "n": 3}, False),
    ({"H": 1, "n": 2}, {"H": 1, "n": 1}, False),   # condition not H fails
    ({"H": 0, "n": 0}, {"H": 1, "n": 0}, False),   # condition n > 0 fails
    ({"H": 0, "n": 2}, {"H": 0, "n": 1}, False),   # H must become true
])
def test_pick_rule(source, target, expected):
    assert accepts(PICK, KINDS, source, target) is expected


def test_unmentioned_features_must_not_change():
    assert accepts(PUT, KINDS, {"H": 1, "n": 2}, {"H": 0, "n": 2})
    assert not accepts(PUT, KINDS, {"H": 1, "n": 2}, {"H": 0, "n": 3})  # the bad rule {H} -> {not H, n?} allows it
    unknown = Rule.of({"H": True}, {"H": Change.DOWN, "n": Change.ANY})
    assert accepts(unknown, KINDS, {"H": 1, "n": 2}, {"H": 0, "n": 3})


def test_boolean_effect_may_keep_the_value():
    # effect p says p(t); without a condition on p it also accepts p staying true
    keep = Rule.of({"n": True}, {"H": Change.UP, "n": Change.DOWN})
    assert accepts(keep, KINDS, {"H": 1, "n": 2}, {"H": 1, "n": 1})


values = st.fixed_dictionaries({"H": st.integers(0, 1), "n": st.integers(0, 5)})


@given(values, values)
def test_projection_accepts_its_own_transition(source, target):
    rule = project(KINDS, source, target)
    assert accepts(rule, KINDS, source, target)
    assert dict(rule.conditions) == {"H": source["H"] > 0, "n": source["n"] > 0}


def test_policies_deduplicate_rules_and_check_names():
    features = [Feature("H", Kind.BOOLEAN), Feature("n", Kind.NUMERICAL)]
    policy = Policy.of(features, [PICK, PUT, Rule.of({"n": True, "H": False}, {"n": Change.DOWN, "H": Change.UP})])
    assert policy.rules == (PICK, PUT)
    assert policy.accepting_rules({"H": 1, "n": 1}, {"H": 0, "n": 1}) == [PUT]
    with pytest.raises(ValueError, match="unknown features"):
        Policy.of(features[:1], [PICK])
    with pytest.raises(ValueError, match="repeat"):
        Policy.of(features + features[:1], [])
