"""Rule-based policies: features by name, rules, compatibility, projection, text formats."""

from stratpol.policy.rules import Change, Feature, Kind, Policy, Rule, accepts, project

__all__ = ["Change", "Feature", "Kind", "Policy", "Rule", "accepts", "project"]
