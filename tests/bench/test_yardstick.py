"""The yardstick of synthesis on gripper: a grammar at complexity 3 lists a feature the pool
generates, one synthesis finds for an Edge requirement, one the learner does not reach, and one
constant on the training states."""

from __future__ import annotations

import json

import pytest

from stratpol.bench.yardstick import LISTING_GRAMMARS, ListingGrammar, generated_part, render_yardstick, yardstick
from stratpol.features import load_grammar
from stratpol.features.grammar import grammars_root
from stratpol.generation import domain_folder
from tests.helpers import stratpol

LISTED = ["n_count(c_primitive(carry,0))",  # generated as n_count(r_primitive(carry,0,1))
          "b_empty(c_some(r_primitive(at_g,0,1),c_primitive(at-robby,0)))",  # synthesised for an Edge
          "n_count(c_and(c_some(r_primitive(at,0,1),c_not(c_primitive(at-robby,0))),"
          "c_some(r_primitive(at_g,0,1),c_not(c_primitive(at-robby,0)))))",  # never reached
          "n_concept_distance(c_primitive(at-robby,0),r_primitive(at,0,1),c_primitive(free,0))"]  # constant


@pytest.fixture(scope="module")
def measured(tmp_path_factory):
    root = tmp_path_factory.mktemp("yardstick")
    folder, training = domain_folder("gripper"), root / "benchmarks" / "test" / "gripper" / "training"
    training.mkdir(parents=True)
    (training.parent / "domain.pddl").write_text(folder.domain.path.read_text())
    for balls in (2, 3, 4):
        (training / f"p0{balls}.pddl").write_text(folder.generator(balls=balls))
    grammar = root / "listing.toml"
    grammar.write_text(f'extends = "{grammars_root() / "default.toml"}"\ncomplexity_limit = 3\n'
                       f'features = {json.dumps(LISTED)}\n')
    return yardstick(ListingGrammar(str(grammar), "test", "gripper"), root / "benchmarks", 10, 300,
                     cache=root / "cache")


def test_each_listed_feature_is_generated_synthesised_for_a_requirement_or_not_found(measured):
    generated, synthesised, missing, constant = measured.verdicts
    assert (generated.found, generated.equal, generated.requirement) == (
        "generated", "n_count(r_primitive(carry,0,1))", None)
    assert (synthesised.found, synthesised.equal) == ("synthesised", LISTED[1])
    assert synthesised.requirement == "Edge, in p04.pddl: (move rooma roomb), step 2 of the plan"
    assert missing.found == "not found" and missing.equal is None
    assert constant.found == "constant on these states"  # every constant would match it
    assert measured.training == "test/gripper p02-p04" and measured.outcome.startswith("learned")
    assert measured.synthesised > 0 and measured.states > 0


def test_the_table_has_a_line_per_listed_feature_and_one_per_grammar(measured):
    table = render_yardstick([measured])
    assert table.count("| listing | test/gripper p02-p04 |") == 4
    assert "| listing (2 of 4 reached) |" in table


def test_the_grammar_without_its_listed_features_generates_what_it_does(tmp_path):
    for name in LISTING_GRAMMARS:
        grammar = load_grammar(name)
        written = load_grammar(generated_part(grammar, tmp_path))
        assert written.features == () and written.complexity_limit == grammar.complexity_limit
        assert written.constructors == grammar.constructors
        assert written.distances == load_grammar("distances").distances


def test_an_unknown_grammar_is_one_line_with_exit_code_2():
    run = stratpol("bench", "yardstick", "--domains", "gripper")
    assert run.returncode == 2 and "no listing grammar gripper" in run.stderr and len(run.stderr.splitlines()) == 1
