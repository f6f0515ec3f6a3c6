"""Run a saved rule policy on one PDDL problem and print its plan, as an IPC planner would.

    python examples/run_ipc_policy.py                        # ferry's policy on IPC 2023 ferry, easy p01
    python examples/run_ipc_policy.py POLICY DOMAIN PROBLEM
"""

import sys

import stratpol

IPC = "../shared/benchmarks/ipc2023/ferry"
policy_file, domain_file, problem_file = sys.argv[1:4] if len(sys.argv) == 4 else (
    "experiments/results/policies/ipc2023/ferry.policy", f"{IPC}/domain.pddl", f"{IPC}/testing/easy/p01.pddl")

domain = stratpol.domain(domain_file)
policy = stratpol.read_policy(policy_file, domain)
problem = domain.load_instance(problem_file)
outcome = stratpol.run(policy, problem, tie_break="first")
for action in outcome.plan:
    print(action)
print(f"; {problem.name}: {'solved' if outcome.solved else 'not solved'} in {outcome.steps} steps, "
      f"{outcome.seconds:.2f} s")
sys.exit(0 if outcome.solved else 1)
