"""Learn a general policy for Gripper from small generated instances, and check that it terminates.

    python examples/learn_gripper.py
"""

import stratpol

learned = stratpol.learn("gripper")  # the domain's generator draws the training instances
print(stratpol.format_policy(learned.policy), end="")
print(f"# termination: {learned.certificate.describe()}")
print(f"# verified on {len(learned.verifications)} training instances")
print(learned.statistics.describe())
assert stratpol.check(learned.policy, k=1).stratified  # the certificate holds: the policy terminates
