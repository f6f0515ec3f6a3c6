"""Structural termination of rule-based policies: monotonicity, k-stratification with checkable
certificates (GENEX paper, section 5) and SIEVE, the exact but exponential test."""

from stratpol.termination.certificate import Certificate, FeatureRank, check_certificate
from stratpol.termination.graph import MAX_EDGES, MAX_FEATURES, Edge, PolicyGraph, edge_count, policy_graph
from stratpol.termination.monotonicity import (
    context,
    entails_change,
    joint_context,
    may_decrease,
    may_increase,
    monotone,
    monotone_given,
    settled,
)
from stratpol.termination.sieve import SieveResult, sieve, sieve_edges
from stratpol.termination.stratification import (StratificationResult, lowest_stratification,
                                                  stratification_certificate)

__all__ = [
    "MAX_EDGES",
    "MAX_FEATURES",
    "Certificate",
    "Edge",
    "FeatureRank",
    "PolicyGraph",
    "SieveResult",
    "StratificationResult",
    "check_certificate",
    "context",
    "edge_count",
    "entails_change",
    "joint_context",
    "lowest_stratification",
    "may_decrease",
    "may_increase",
    "monotone",
    "monotone_given",
    "settled",
    "policy_graph",
    "sieve",
    "sieve_edges",
    "stratification_certificate",
]
