"""The public API's verbs: find a domain, check a policy's termination, verify it on an instance,
run it, and evaluate it with the scaling protocol. `stratpol.learn` is `stratpol.learner.learn`.
Each takes a rule policy as data (`Policy`, as `read_policy` or `learn` gives it) and binds it to
the domain's vocabulary itself."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from stratpol.evaluation.protocol import ScalingSettings
from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.generation import domain_folder, find_domain
from stratpol.planning import Domain, Instance
from stratpol.policy import Policy
from stratpol.provenance import content_hash
from stratpol.termination import StratificationResult, stratification_certificate
from stratpol.verification import Verification

if TYPE_CHECKING:
    from stratpol.evaluation.runner import RunOutcome
    from stratpol.evaluation.scaling import ScalingResult


def domain(name_or_path: str | Path) -> Domain:
    """A domain by registry name ("gripper", see `stratpol domains`) or by its domain.pddl."""
    return find_domain(name_or_path)


def read_policy(path: str | Path, domain: str | Path | Domain | None = None) -> Policy:
    """A policy file in the readable or in dlplan's format (which needs the policy's `domain`)."""
    from stratpol.policy.files import read_policy_file

    factory = None if domain is None else Vocabulary(find_domain(domain)).factory
    return read_policy_file(path, factory)


def check(policy: Policy, k: int = 1) -> StratificationResult:
    """Termination: whether `policy` is k-stratified, with its certificate (ranks and the sets G)."""
    return stratification_certificate(policy, k=k)


def verify(policy: Policy, instance: Instance, max_states: int | None = None,
           symmetry: bool = False) -> Verification:
    """Whether `policy` solves `instance` whatever compatible successor it takes: closed, safe and
    acyclic over every policy-reachable state; on failure, a witness path."""
    from stratpol.file_verification import verify_policy

    return verify_policy(PolicyEvaluator(policy, Vocabulary(instance.domain)), instance, max_states, symmetry)


def run(policy: Policy, instance: Instance, tie_break: str = "random", seed: int = 0, step_bound: int | None = None,
        sketch_width: int = 0) -> RunOutcome:
    """Follow `policy` on `instance` (ties among compatible successors broken by `tie_break`) until a
    goal or a failure; the RunOutcome holds the plan. `step_bound` defaults to 10 steps an object
    plus 100; `sketch_width` K > 0 follows it as a sketch, with IW(1..K) where no successor is
    compatible."""
    from stratpol.evaluation import RulePolicy
    from stratpol.evaluation import run as run_policy
    from stratpol.evaluation.runner import file_step_bound

    follower = RulePolicy(policy, Vocabulary(instance.domain), tie_break, seed)
    bound = file_step_bound(instance) if step_bound is None else step_bound
    return run_policy(follower, instance, bound, sketch_width=sketch_width)


def evaluate(policy: Policy, domain: str, settings: ScalingSettings = ScalingSettings(), out: str | Path | None = None,
             tie_break: str = "random", seed: int = 0,
             progress: Callable[[str], None] = lambda line: None) -> ScalingResult:
    """The scaling evaluation of `policy` on instances of growing size from the generator of the
    registry domain `domain`: per size the coverage within its confidence bound, up to where it
    stays below tau. With `out`, the runs, tables and provenance are kept there (and resumed)."""
    from stratpol.evaluation import RulePolicy
    from stratpol.evaluation.scaling import scaling_evaluation
    from stratpol.policy.text import format_policy

    folder = domain_folder(domain)
    follower = RulePolicy(policy, Vocabulary(folder.domain), tie_break, seed)
    source = follower.source(content_hash(format_policy(policy)))  # as `stratpol evaluate` names its saved file
    return scaling_evaluation(follower, folder, settings, None if out is None else Path(out), progress=progress,
                              source=source)
