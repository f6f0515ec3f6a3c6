"""Logistics, a failure of the GENEX paper (Edge), learned with listed features: the committed
policy (experiments/results/policies/table2/logistics.policy) and the grammar it came from."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import stratpol

from stratpol.features import Vocabulary
from stratpol.features.grammar import load_grammar
from stratpol.features.kind import Kind
from stratpol.features.pool import parse_feature
from stratpol.generation import domain_folder

POLICY = Path(__file__).parents[2] / "experiments" / "results" / "policies" / "table2" / "logistics.policy"


def test_the_listed_logistics_features_read_with_their_complexities():
    # the grammar file says 4 to 68: all but the packages in an airplane lie beyond the generation's 5
    features = [parse_feature(Vocabulary(domain_folder("logistics").domain), Kind.NUMERICAL, expression)
                for expression in load_grammar("logistics").features]
    assert [f.complexity for f in features] == [9, 27, 15, 26, 4, 21, 14, 31, 14, 47, 33, 59, 68]


def test_the_learned_logistics_policy_is_certified():
    check = stratpol("check", POLICY, "--domain", "logistics")
    assert check.returncode == 0, check.stderr
    assert "logistics.policy: 1-stratified" in check.stdout  # 14 features: too many for SIEVE's graph


@pytest.mark.parametrize(("airplanes", "cities", "city_size", "packages", "trucks"), [
    (1, 3, 3, 6, 3),  # one airplane serving three cities
    (3, 4, 2, 9, 5),  # a second truck in one of the four cities, three airplanes
])
def test_the_learned_logistics_policy_delivers_between_cities_with_valid_plans(tmp_path, airplanes, cities,
                                                                                city_size, packages, trucks):
    # the training files have at most two cities, two packages, two airplanes and two trucks
    folder = domain_folder("logistics")
    problem = tmp_path / "problem.pddl"
    problem.write_text(folder.generator(airplanes=airplanes, cities=cities, city_size=city_size,
                                        packages=packages, trucks=trucks, seed=7))
    run = stratpol("run", "--domain", "logistics", POLICY, problem)
    assert run.returncode == 0 and "solved in" in run.stdout, run.stdout[-300:] + run.stderr
    plan = tmp_path / "plan"
    plan.write_text(run.stdout)
    check = stratpol("validate", folder.domain_file, problem, plan)
    assert check.returncode == 0, check.stdout + check.stderr
