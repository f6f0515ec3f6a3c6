"""Monotonicity, entailed changes and the contexts sigma(R, g, .) (GENEX paper, Defs. 3-5, 7)."""

from __future__ import annotations

import pytest
from termination_helpers import GRIPPER

from stratpol.policy import Change, Feature, Kind, Rule
from stratpol.termination import (
    context,
    entails_change,
    joint_context,
    may_decrease,
    may_increase,
    monotone,
    monotone_given,
)

P = Feature("p", Kind.BOOLEAN)
N = Feature("n", Kind.NUMERICAL)
UP, DOWN, ANY = Change.UP, Change.DOWN, Change.ANY


@pytest.mark.parametrize("condition, effect, increase, decrease, entails", [
    # Booleans: an effect p can raise p only from not p; it entails a change only under not p
    (None, UP, True, False, False),
    (False, UP, True, False, True),
    (True, UP, False, False, False),
    (None, DOWN, False, True, False),
    (True, DOWN, False, True, True),
    (False, DOWN, False, False, False),
    (None, ANY, True, True, False),
    (True, ANY, True, True, False),   # as the brief says; p? under p could in fact only lower p
    (None, None, False, False, False),
    (True, None, False, False, False),
])
def test_boolean_changes(condition, effect, increase, decrease, entails):
    rule = Rule.of({} if condition is None else {"p": condition}, {} if effect is None else {"p": effect})
    assert (may_increase(rule, P), may_decrease(rule, P), entails_change(rule, P)) == (increase, decrease, entails)


@pytest.mark.parametrize("condition", [None, True, False])
@pytest.mark.parametrize("effect, increase, decrease, entails", [
    (UP, True, False, True),
    (DOWN, False, True, True),      # even under n = 0, where the rule never applies
    (ANY, True, True, False),
    (None, False, False, False),
])
def test_numerical_changes_ignore_conditions(condition, effect, increase, decrease, entails):
    rule = Rule.of({} if condition is None else {"n": condition}, {} if effect is None else {"n": effect})
    assert (may_increase(rule, N), may_decrease(rule, N), entails_change(rule, N)) == (increase, decrease, entails)


A, M = GRIPPER.feature("A"), GRIPPER.feature("m")
R1, R2, R3, R4 = GRIPPER.rules


def test_gripper_contexts_of_the_paper():
    rules, n = GRIPPER.rules, GRIPPER.feature("n")
    assert context(rules, n, None) == context(rules, n, False) == context(rules, n, True) == (R2, R3, R4)
    assert context(rules, M, None) == (R1, R3, R4)   # m? in r1 lets m stay unchanged
    assert context(rules, M, False) == (R1, R4)
    assert context(rules, M, True) == (R1, R3)        # the paper's "{r1, r4}" here is a typo
    assert monotone(rules, n) and not monotone(rules, M) and not monotone(rules, A)
    assert monotone_given(rules, M, [n]) and monotone_given(rules, A, [M])
    assert not monotone_given(rules, A, [n]) and not monotone_given(rules, M, [A])


def test_joint_context_is_an_intersection():
    rules, n = GRIPPER.rules, GRIPPER.feature("n")
    assert joint_context(rules, []) == rules
    assert joint_context(rules, [(n, True), (M, True)]) == (R3,)
    assert joint_context(rules, [(M, False), (A, False)]) == (R1,)
    assert joint_context(rules, [(n, False), (A, True)]) == (R2,)


def test_boolean_effect_without_condition_may_keep_the_value():
    # {} -> {p}: p may stay true, so the rule is in sigma(R, p, =) and (conservatively) in both
    # sigma(R, p, 0) and sigma(R, p, 1); {not p} -> {p} is in none of them
    keep, flip = Rule.of({}, {"p": UP}), Rule.of({"p": False}, {"p": UP})
    assert context([keep, flip], P, None) == context([keep, flip], P, False) == context([keep, flip], P, True) == (keep,)
    unknown = Rule.of({"p": True}, {"p": ANY})
    assert context([unknown], P, None) == context([unknown], P, True) == (unknown,)
    assert context([unknown], P, False) == ()


def test_monotone_given_nothing_is_monotone():
    assert monotone_given(GRIPPER.rules, GRIPPER.feature("n"), [])
    assert not monotone_given(GRIPPER.rules, A, [])
    assert monotone([], A)
