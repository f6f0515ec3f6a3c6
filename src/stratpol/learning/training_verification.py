"""WRAPPER's verification on training instances: of Q' in the inner loop, and the test on Q after
each outer iteration."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

from stratpol.features.policy_evaluator import PolicyEvaluator
from stratpol.planning import Instance, State
from stratpol.planning.dead_ends import is_dead_end
from stratpol.planning.symmetry import canonical_key
from stratpol.progress import finish_status, report_status
from stratpol.verification import Failure, Verification, verify, verify_by_runs


@dataclass
class TrainingVerifier:
    """How WRAPPER verifies a policy on one training instance: up to `max_states` policy-reachable
    states, and past them `runs` seeded runs with random tie-breaks (`verify_by_runs`; none: the
    verdict is the state limit); with `dead_ends`, the first proven dead end on a witness ends it
    (memoised per state); with `symmetry`, one state per renaming of interchangeable objects."""

    max_states: int
    dead_ends: bool = False
    symmetry: bool = False
    dead_end_time_limit: float = 10.0
    runs: int = 0
    seed: int = 0
    _dead: dict[State, bool] = field(default_factory=dict, repr=False)
    _keys: dict[Instance, Callable[[State], Hashable] | None] = field(default_factory=dict, repr=False)

    def verify(self, instance: Instance, evaluator: PolicyEvaluator,
               progress: Callable[[str], None] = lambda message: None) -> Verification:
        """The verdict of the policy of `evaluator` on `instance`."""
        test = self._is_dead_end(instance) if self.dead_ends else None
        if self.symmetry and instance not in self._keys:
            self._keys[instance] = canonical_key(instance)
        compatible = evaluator.on(instance).compatible_successors
        verdict = verify(instance, compatible, max_states=self.max_states,
                         is_dead_end=test, canonical=self._keys.get(instance), progress=progress)
        if verdict.failure is not Failure.LIMIT or not self.runs:
            return verdict
        progress(f"{instance.source_name}: more than {self.max_states:,} policy-reachable states; "
                 f"testing by {self.runs} runs")
        return verify_by_runs(instance, compatible, self.runs, self.seed, dead_end_time_limit=self.dead_end_time_limit,
                              is_dead_end=test, progress=progress)

    def _is_dead_end(self, instance: Instance) -> Callable[[State], bool]:
        def test(state: State) -> bool:
            if state not in self._dead:
                self._dead[state] = is_dead_end(instance, state, time_limit=self.dead_end_time_limit)
            return self._dead[state]
        return test


def verify_on_q(verifier: TrainingVerifier, instances: Sequence[Instance], evaluator: PolicyEvaluator,
                failures: int = 1, progress: Callable[[str], None] = lambda message: None,
                ) -> tuple[list[Verification], list[int]]:
    """WRAPPER's test on Q: the instances verified in order up to the `failures`-th that fails, and
    the numbers of those that fail (none where all pass)."""
    verifications: list[Verification] = []
    failing: list[int] = []
    try:
        for number, instance in enumerate(instances):
            report_status(progress, "verification on Q", number, len(instances), instance.source_name)
            verifications.append(verifier.verify(instance, evaluator, progress=progress))
            if not verifications[-1].solved:
                failing.append(number)
                if len(failing) == failures:
                    break
        return verifications, failing
    finally:
        finish_status(progress, "verification on Q")
