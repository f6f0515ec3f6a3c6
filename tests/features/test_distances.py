"""Generated concept distances (a grammar's [distances] table) on transport: the distance from the
loaded vehicles to their packages' goals, listed by hand in feature_grammars/transport.toml, is
generated from a pool at complexity 5, which dlplan's generator never reaches."""

from __future__ import annotations

import dataclasses

import pytest

from stratpol.errors import InputError
from stratpol.features import FeatureTable, Vocabulary, load_grammar
from stratpol.features.grammar import DistanceBounds, grammars_root
from stratpol.features.kind import Kind
from stratpol.features.pool import generate_pool, parse_feature
from stratpol.generation import domain_folder
from stratpol.learning.teacher import Teacher
from tests.helpers import random_walk

LOADED_TO_GOALS = ("n_concept_distance(c_some(r_inverse(r_primitive(at,0,1)),c_some(r_inverse(r_primitive(in,0,1)),"
                   "c_top)),r_primitive(road,0,1),c_some(r_inverse(r_primitive(at_g,0,1)),c_some(r_primitive(in,0,1),"
                   "c_top)))")


@pytest.fixture(scope="module")
def transport(tmp_path_factory):
    folder = domain_folder("transport")
    vocabulary = Vocabulary(folder.domain)
    cache = tmp_path_factory.mktemp("distances")
    states = []
    for seed in range(3):
        instance = folder.domain.instance_from_text(folder.generator(vehicles=2, packages=3, locations=6,
                                                                      max_capacity=2, seed=seed))
        bridge = vocabulary.bridge(instance)
        plan = Teacher("siw", cache_dir=cache).advise(instance).states  # loaded vehicles on their way
        states += [(bridge, s) for s in plan] + [(bridge, random_walk(instance, steps, seed)) for steps in (5, 10)]
    grammar_file = cache / "distances.toml"
    grammar_file.write_text(f'extends = "{grammars_root() / "default.toml"}"\ncomplexity_limit = 5\n\n'
                            "[distances]\nconcept_complexity = 7\nrole_complexity = 3\ncomplexity = 15\n"
                            "candidates = 100000\n")
    return vocabulary, states, load_grammar(grammar_file)


def test_the_listed_distance_is_generated_and_dlplan_alone_does_not_make_it(transport, tmp_path):
    vocabulary, states, grammar = transport
    assert grammar.distances == DistanceBounds(7, 3, 15, 100_000)
    pool = generate_pool(vocabulary, states, grammar, tmp_path)
    listed = parse_feature(vocabulary, Kind.NUMERICAL, LOADED_TO_GOALS)
    table = FeatureTable.evaluate([listed, *pool], states)
    equal = [pool[i].description for i in range(len(pool)) if (table.values[:, i + 1] == table.values[:, 0]).all()]
    assert equal and all(d.startswith("n_concept_distance(") for d in equal)
    assert len(set(table.values[:, 0])) > 2  # a distance with several values on these states, not a flag
    plain = generate_pool(vocabulary, states, dataclasses.replace(grammar, distances=None))
    plain_table = FeatureTable.evaluate([listed, *plain], states)
    assert not (plain_table.values[:, 1:] == plain_table.values[:, :1]).all(axis=0).any()
    # each generated distance takes values on the states that no other feature of the pool takes
    added = [i for i in range(len(pool)) if pool[i].description not in {f.description for f in plain}]
    assert added and all(pool[i].description.startswith("n_concept_distance(") for i in added)
    others = {table.values[:, i + 1].tobytes() for i in range(len(pool)) if i not in added}
    columns = [table.values[:, i + 1].tobytes() for i in added]
    assert len(set(columns)) == len(columns) and not set(columns) & others
    again = generate_pool(vocabulary, states, grammar, tmp_path)  # from the cache: the same pool
    assert [f.description for f in again] == [f.description for f in pool]


def test_distance_bounds_that_are_not_positive_integers_are_one_clear_error(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("[distances]\ncomplexity = 0\n")
    with pytest.raises(InputError, match="distances.complexity must be a positive integer, not 0"):
        load_grammar(path)
    path.write_text("[distances]\nreach = 3\n")
    with pytest.raises(InputError, match="distances must be a table of concept_complexity, role_complexity"):
        load_grammar(path)
