"""The readable policy format: a legend of features, then one rule a line.

    # stratpol policy
    domain blocksworld
    boolean H = b_nullary(holding)
    numerical n = n_count(c_some(r_transitive_closure(r_primitive(on,0,1)),c_primitive(clear_g,0)))

    {not H, n > 0} -> {H, n down}
    {H} -> {not H}

The `domain` line (optional) names the PDDL domain whose predicates and constants the features
use. Conditions: `p`, `not p`, `n = 0`, `n > 0`. Effects: `p`, `not p`, `p?`, `n up`, `n down`, `n?`.
"""

from __future__ import annotations

import re
from pathlib import Path

from stratpol.atomic import write_text_atomically
from stratpol.errors import InputError
from stratpol.policy.rules import Change, Feature, Kind, Policy, Rule

HEADER = "# stratpol policy"
_NAME = r"[A-Za-z_][A-Za-z0-9_\-']*"
_FEATURE_LINE = re.compile(rf"^(boolean|numerical)\s+({_NAME})\s*(?:=\s*(.*?))?\s*$")
_RULE_LINE = re.compile(r"^\{(.*)\}\s*->\s*\{(.*)\}$")
_DOMAIN_LINE = re.compile(r"^domain\s+(\S+)$")


def _condition_text(feature: Feature, positive: bool) -> str:
    if feature.is_boolean:
        return feature.name if positive else f"not {feature.name}"
    return f"{feature.name} > 0" if positive else f"{feature.name} = 0"


def _effect_text(feature: Feature, change: Change) -> str:
    if feature.is_boolean:
        return {Change.UP: feature.name, Change.DOWN: f"not {feature.name}", Change.ANY: f"{feature.name}?"}[change]
    return {Change.UP: f"{feature.name} up", Change.DOWN: f"{feature.name} down", Change.ANY: f"{feature.name}?"}[change]


def format_rule(policy: Policy, rule: Rule) -> str:
    """`{conditions} -> {effects}`, features in the policy's order."""
    order = {f.name: i for i, f in enumerate(policy.features)}
    conditions = sorted(rule.conditions, key=lambda c: order[c[0]])
    effects = sorted(rule.effects, key=lambda e: order[e[0]])
    left = ", ".join(_condition_text(policy.feature(name), positive) for name, positive in conditions)
    right = ", ".join(_effect_text(policy.feature(name), change) for name, change in effects)
    return f"{{{left}}} -> {{{right}}}"


def format_policy(policy: Policy) -> str:
    lines = [HEADER] + ([f"domain {policy.domain}"] if policy.domain else [])
    for feature in policy.features:
        legend = f" = {feature.description}" if feature.description else ""
        lines.append(f"{feature.kind.value} {feature.name}{legend}")
    lines.append("")
    lines += [format_rule(policy, rule) for rule in policy.rules]
    return "\n".join(lines) + "\n"


def _parse_items(text: str) -> list[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def _parse_condition(item: str, kinds: dict[str, Kind]) -> tuple[str, bool]:
    match = re.fullmatch(rf"not\s+({_NAME})|({_NAME})\s*(=\s*0|>\s*0)|({_NAME})", item)
    if not match:
        raise ValueError(f"not a condition: {item!r}")
    name = match.group(1) or match.group(2) or match.group(4)
    if name not in kinds:
        raise ValueError(f"unknown feature {name!r} in {item!r}")
    boolean_form = match.group(1) is not None or match.group(4) is not None
    if boolean_form != (kinds[name] is Kind.BOOLEAN):
        raise ValueError(f"{item!r} does not fit {kinds[name].value} feature {name}")
    if match.group(2):
        return name, match.group(3).startswith(">")
    return name, match.group(1) is None


def _parse_effect(item: str, kinds: dict[str, Kind]) -> tuple[str, Change]:
    match = re.fullmatch(rf"not\s+({_NAME})|({_NAME})\s+(up|down)|({_NAME})\?|({_NAME})", item)
    if not match:
        raise ValueError(f"not an effect: {item!r}")
    name = next(g for g in (match.group(1), match.group(2), match.group(4), match.group(5)) if g)
    if name not in kinds:
        raise ValueError(f"unknown feature {name!r} in {item!r}")
    if match.group(4):
        return name, Change.ANY
    numerical_form = match.group(2) is not None
    if numerical_form != (kinds[name] is Kind.NUMERICAL):
        raise ValueError(f"{item!r} does not fit {kinds[name].value} feature {name}")
    if match.group(2):
        return name, Change.UP if match.group(3) == "up" else Change.DOWN
    return name, Change.DOWN if match.group(1) else Change.UP


def parse_policy(text: str, source: str | Path = "<policy>") -> Policy:
    """Read the readable format; a mistake is an InputError naming the line."""
    features: list[Feature] = []
    rules: list[Rule] = []
    domain = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            named = _DOMAIN_LINE.match(line)
            if named and not features and not rules and domain is None:
                domain = named.group(1)
                continue
            feature = _FEATURE_LINE.match(line)
            if feature and not rules:
                features.append(Feature(feature.group(2), Kind(feature.group(1)), feature.group(3) or ""))
                continue
            rule = _RULE_LINE.match(line)
            if not rule:
                raise ValueError("expected `boolean|numerical NAME = EXPRESSION` or `{...} -> {...}`")
            kinds = {f.name: f.kind for f in features}
            conditions = [_parse_condition(item, kinds) for item in _parse_items(rule.group(1))]
            effects = [_parse_effect(item, kinds) for item in _parse_items(rule.group(2))]
            for pairs, what in ((conditions, "condition"), (effects, "effect")):
                names = [name for name, _ in pairs]
                if len(set(names)) != len(names):
                    raise ValueError(f"a feature appears twice in one {what}")
            rules.append(Rule.of(conditions, effects))
        except ValueError as error:
            raise InputError(f"line {number}: {error}", source) from None
    try:
        return Policy.of(features, rules, domain)
    except ValueError as error:
        raise InputError(str(error), source) from None


def read_policy(path: str | Path) -> Policy:
    path = Path(path)
    if not path.is_file():
        raise InputError("policy file not found", path)
    return parse_policy(path.read_text(), path)


def write_policy(path: str | Path, policy: Policy, comment: str = "") -> None:
    """The policy in the readable format at `path`, after the lines of `comment` (each a `#` line)."""
    if any(line and not line.startswith("#") for line in comment.splitlines()):
        raise ValueError(f"a policy file's comment lines start with '#': {comment!r}")
    write_text_atomically(Path(path), (comment.rstrip("\n") + "\n" if comment else "") + format_policy(policy))
