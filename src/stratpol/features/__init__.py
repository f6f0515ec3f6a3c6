"""Description-logic features: vocabularies, feature pools, feature tables over states."""

from stratpol.features.grammar import Grammar, load_grammar
from stratpol.features.pool import FeaturePool, PoolFeature, PoolGeneration, generate_pool, parse_feature
from stratpol.features.table import FeatureTable, prune_equivalent
from stratpol.features.vocabulary import InstanceBridge, Vocabulary

__all__ = ["FeaturePool", "FeatureTable", "Grammar", "InstanceBridge", "PoolFeature", "PoolGeneration", "Vocabulary",
           "generate_pool", "load_grammar", "parse_feature", "prune_equivalent"]
