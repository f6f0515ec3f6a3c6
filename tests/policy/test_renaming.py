"""A policy carried to another spelling of its domain by renaming predicates."""

from __future__ import annotations

import subprocess
import sys

import pytest

from stratpol.policy import Change, Feature, Kind, Policy, Rule
from stratpol.policy.renaming import rename_predicates

# a gp2024-spelt spanner feature pair: the usable spanners, and the loose nuts whose goal copy is tight
USEABLE = Feature("n0", Kind.NUMERICAL, "n_count(c_primitive(useable,0))")
GOAL = Feature("b0", Kind.BOOLEAN, "b_empty(c_and(c_primitive(useable_g,0),c_primitive(loose,0)))")
POLICY = Policy.of([USEABLE, GOAL], [Rule.of({"b0": False}, {"n0": Change.DOWN})], "spanner")


def test_a_predicate_and_its_goal_copy_are_renamed_and_nothing_else():
    renamed = rename_predicates(POLICY, {"useable": "usable"})
    assert [f.description for f in renamed.features] == [
        "n_count(c_primitive(usable,0))", "b_empty(c_and(c_primitive(usable_g,0),c_primitive(loose,0)))"]
    assert renamed.rules == POLICY.rules and renamed.domain == "spanner"
    assert rename_predicates(POLICY, {}) == POLICY


def test_a_predicate_name_inside_another_is_left_alone():
    feature = Feature("n0", Kind.NUMERICAL, "n_count(r_primitive(at-robby,0,1))")
    policy = rename_predicates(Policy.of([feature], []), {"at": "located"})
    assert policy.features[0].description == "n_count(r_primitive(at-robby,0,1))"


@pytest.fixture
def spanner_files(tmp_path):
    from stratpol.policy.text import format_policy

    (tmp_path / "p.policy").write_text(format_policy(POLICY))
    domain = tmp_path / "domain.pddl"
    domain.write_text("""(define (domain spanner) (:requirements :typing :strips)
 (:types location locatable - object man nut spanner - locatable)
 (:predicates (at ?m - locatable ?l - location) (carrying ?m - man ?s - spanner) (usable ?s - spanner)
              (link ?l1 - location ?l2 - location) (tightened ?n - nut) (loose ?n - nut))
 (:action pickup_spanner :parameters (?l - location ?s - spanner ?m - man)
  :precondition (and (at ?m ?l) (at ?s ?l)) :effect (and (not (at ?s ?l)) (carrying ?m ?s))))""")
    return tmp_path


def test_rename_writes_a_policy_that_reads_in_the_target_domain(spanner_files):
    out = spanner_files / "ipc.policy"
    run = subprocess.run([sys.executable, "-m", "stratpol.cli", "rename", str(spanner_files / "p.policy"), "--domain",
                          str(spanner_files / "domain.pddl"), "--predicate", "useable=usable", "--out", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "c_primitive(usable_g,0)" in out.read_text() and out.with_suffix(".policy.dlplan").is_file()


def test_a_predicate_left_unmapped_is_one_line(spanner_files):
    run = subprocess.run([sys.executable, "-m", "stratpol.cli", "rename", str(spanner_files / "p.policy"), "--domain",
                          str(spanner_files / "domain.pddl")], capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and len(run.stderr.splitlines()) == 1
    assert "undefined predicate 'useable' (after renaming)" in run.stderr
