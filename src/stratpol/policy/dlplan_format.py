"""dlplan's `(:policy ...)` format, read and written through dlplan itself.

The two semantics differ in one place: in dlplan a feature missing from a rule's effects may
change arbitrarily and `bot` means "unchanged", while in stratpol (as in the paper) a missing
feature must not change and `?` means "may change". The conversion maps one onto the other, so
a policy survives the round trip exactly when all its features have dlplan expressions.
"""

from __future__ import annotations

import re
from pathlib import Path

from dlplan.policy import PolicyFactory

from stratpol.atomic import write_text_atomically
from stratpol.features.own_constructors import uses_own_constructors
from stratpol.planning.quiet import captured_stderr, captured_stdout
from stratpol.policy.rules import Change, Feature, Kind, Policy, Rule
from stratpol.policy.text import write_policy

_CONDITIONS = {
    "PositiveBooleanCondition": True, "NegativeBooleanCondition": False,
    "GreaterNumericalCondition": True, "EqualNumericalCondition": False,
}
_EFFECTS = {
    "PositiveBooleanEffect": Change.UP, "NegativeBooleanEffect": Change.DOWN,
    "IncrementNumericalEffect": Change.UP, "DecrementNumericalEffect": Change.DOWN,
    "UnchangedBooleanEffect": None, "UnchangedNumericalEffect": None,
}


def to_dlplan(policy: Policy, factory: object) -> object:
    """A dlplan Policy; `factory` is the SyntacticElementFactory of the domain's vocabulary."""
    policies = PolicyFactory(factory)
    named = {}
    for feature in policy.features:
        if not feature.description:
            raise ValueError(f"feature {feature.name} has no description-logic expression")
        if feature.is_boolean:
            named[feature.name] = policies.make_boolean(feature.name, factory.parse_boolean(feature.description))
        else:
            named[feature.name] = policies.make_numerical(feature.name, factory.parse_numerical(feature.description))
    rules = set()
    for rule in policy.rules:
        conditions = set()
        for name, positive in rule.conditions:
            element, boolean = named[name], policy.feature(name).is_boolean
            if boolean:
                conditions.add(policies.make_pos_condition(element) if positive else policies.make_neg_condition(element))
            else:
                conditions.add(policies.make_gt_condition(element) if positive else policies.make_eq_condition(element))
        effects = set()
        effect = rule.effect
        for feature in policy.features:
            element, change = named[feature.name], effect.get(feature.name)
            if change is Change.ANY:
                continue  # dlplan: a feature missing from the effects may change
            if change is None:
                effects.add(policies.make_bot_effect(element))
            elif feature.is_boolean:
                effects.add(policies.make_pos_effect(element) if change is Change.UP else policies.make_neg_effect(element))
            else:
                effects.add(policies.make_inc_effect(element) if change is Change.UP else policies.make_dec_effect(element))
        rules.add(policies.make_rule(conditions, effects))
    return policies.make_policy(rules)


def from_dlplan(dlplan_policy: object) -> Policy:
    """Our Policy from a dlplan Policy; features ordered Booleans first, each group by name."""
    features = [Feature(b.get_key(), Kind.BOOLEAN, str(b.get_element())) for b in dlplan_policy.get_booleans()]
    features += [Feature(n.get_key(), Kind.NUMERICAL, str(n.get_element())) for n in dlplan_policy.get_numericals()]
    features.sort(key=lambda f: (f.kind is Kind.NUMERICAL, f.name))
    rules = []
    for dlplan_rule in sorted(dlplan_policy.get_rules(), key=str):
        conditions = {c.get_named_element().get_key(): _CONDITIONS[type(c).__name__] for c in dlplan_rule.get_conditions()}
        effects = {f.name: Change.ANY for f in features}
        for effect in dlplan_rule.get_effects():
            kind = type(effect).__name__
            if kind not in _EFFECTS:
                raise ValueError(f"dlplan effect {kind} has no stratpol counterpart")
            change = _EFFECTS[kind]
            name = effect.get_named_element().get_key()
            if change is None:
                del effects[name]
            else:
                effects[name] = change
        rules.append(Rule.of(conditions, effects))
    return Policy.of(features, rules)


def format_dlplan(policy: Policy, factory: object) -> str:
    return str(to_dlplan(policy, factory))


def write_policy_files(path: str | Path, policy: Policy, factory: object, comment: str = "") -> str | None:
    """The policy in stratpol's readable format at `path` (headed by the `comment` lines) and in
    dlplan's at `path`.dlplan; where
    a feature uses a constructor of ours (features/own_constructors.py), no .dlplan file (a stale one is removed)
    and the reason is returned."""
    path = Path(path)
    write_policy(path, policy, comment)
    dlplan_path = path.with_suffix(path.suffix + ".dlplan")
    foreign = [f.name for f in policy.features if uses_own_constructors(f.description or "")]
    if foreign:
        dlplan_path.unlink(missing_ok=True)
        return f"{dlplan_path} not written: dlplan has no constructor for feature(s) {', '.join(foreign)}"
    write_text_atomically(dlplan_path, format_dlplan(policy, factory))
    return None


def parse_dlplan(text: str, factory: object) -> Policy:
    """Read dlplan's policy text (features parsed against `factory`'s vocabulary).

    dlplan prints where parsing failed before it raises; that report becomes the error's one line.
    """
    failure = None
    with captured_stdout() as printed, captured_stderr() as complained:
        try:
            parsed = PolicyFactory(factory).parse_policy(text)
        except RuntimeError as error:
            failure = error
    if failure is not None:
        reason = _parse_report("".join(printed + complained)) or str(failure)
        raise ValueError(f"not a dlplan policy of this domain: {reason}")
    return from_dlplan(parsed)


def _parse_report(report: str) -> str | None:
    """"line 2: undefined constant 'rooma'" from dlplan's report: `In line 2:`, the message, the
    line parsed, and a `~~~` marker under the word it failed at."""
    lines = report.splitlines()
    for i, line in enumerate(lines):
        match = re.fullmatch(r"\s*In line (\d+):\s*", line)
        if match and i + 1 < len(lines):
            reason = f"line {match.group(1)}: {lines[i + 1].strip()}"
            if i + 3 < len(lines) and "~" in lines[i + 3]:
                start = lines[i + 3].index("~")
                end = len(lines[i + 3]) - len(lines[i + 3][start:].lstrip("~"))
                reason += f" {lines[i + 2][start:end]!r}"
            return reason
    return None
