"""WRAPPER's verification of training instances: the test on Q up to the failing instances asked
for, dead-end tests and verification over renamings."""

from __future__ import annotations

from stratpol.features import Vocabulary
from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.generation import domain_folder
from stratpol.learning.training_verification import TrainingVerifier, verify_on_q
from stratpol.planning import Domain
from stratpol.policy.text import parse_policy
from stratpol.verification import Failure
from tests.helpers import DATA, gripper_instances, oneway_instance

GRIPPER = domain_folder("gripper")


def evaluator(text: str) -> PolicyEvaluator:
    return PolicyEvaluator(parse_policy(text), Vocabulary(GRIPPER.domain))


SOLVES = (DATA / "golden" / "gripper.policy").read_text()
# no ball, the robot to room B: no rule of the policy applies in the initial state (not closed)
STUCK = GRIPPER.domain.instance_from_text(
    "(define (problem stuck) (:domain gripper) (:objects rooma roomb - room left right - gripper)"
    " (:init (at-robby rooma) (free left) (free right)) (:goal (at-robby roomb)))")


def test_the_test_on_q_finds_the_failing_instances_in_order_up_to_the_number_asked_for():
    given = [*gripper_instances(1), STUCK, STUCK, *gripper_instances(2)]
    verifier = TrainingVerifier(10_000)
    verifications, failing = verify_on_q(verifier, given, evaluator(SOLVES))
    assert failing == [1] and len(verifications) == 2 and verifications[0].solved
    assert verifications[1].failure is Failure.NOT_CLOSED
    verifications, failing = verify_on_q(verifier, given, evaluator(SOLVES), failures=2)
    assert failing == [1, 2] and len(verifications) == 3
    verifications, failing = verify_on_q(verifier, gripper_instances(1, 2, 3), evaluator(SOLVES), failures=2)
    assert failing == [] and len(verifications) == 3 and all(v.solved for v in verifications)


def test_past_its_state_limit_an_instance_fails_with_the_limit():
    verification = TrainingVerifier(5).verify(gripper_instances(3)[0], evaluator(SOLVES))
    assert verification.failure is Failure.LIMIT and verification.states > 5


def test_symmetry_counts_fewer_states_with_the_same_verdicts():
    given = gripper_instances(4, 5)
    plain, _ = verify_on_q(TrainingVerifier(100_000), given, evaluator(SOLVES))
    renamed, _ = verify_on_q(TrainingVerifier(100_000, symmetry=True), given, evaluator(SOLVES))
    assert all(v.solved for v in plain + renamed) and all(v.renamed for v in renamed)
    assert all(r.states < p.states for r, p in zip(renamed, plain))


def test_dead_end_tests_end_a_witness_at_the_first_dead_end_the_policy_walks_into():
    domain = Domain(DATA / "gripper-oneway.pddl")
    instance = oneway_instance(domain, 2)
    # carries one ball to room B and drops it there: past the move, the other ball is lost in room A
    policy = parse_policy("# stratpol policy\ndomain gripper-oneway\n"
                          "boolean A = b_empty(c_and(c_primitive(at-robby,0),c_one_of(roomb)))\n"
                          "numerical m = n_count(r_primitive(carry,0,1))\n\n"
                          "{A, m = 0} -> {m up}\n{A, m > 0} -> {not A}\n{not A, m > 0} -> {m down}\n")
    check = PolicyEvaluator(policy, Vocabulary(domain))
    late = TrainingVerifier(1_000).verify(instance, check)
    early = TrainingVerifier(1_000, dead_ends=True).verify(instance, check)
    assert late.failure is early.failure is Failure.DEAD_END
    assert len(late.witness) == 4 and early.witness == late.witness[:3]  # pick, move | drop
