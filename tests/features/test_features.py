"""Feature pools on Gripper and Blocksworld state spaces, the bridge, tables and pruning."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratpol.errors import InputError
from stratpol.features import FeatureTable, Grammar, Vocabulary, generate_pool, load_grammar, parse_feature
from stratpol.features.grammar import CONSTRUCTORS, grammars_root
from stratpol.features.pool import expression_depth
from stratpol.features.table import prune_equivalent
from stratpol.generation import domain_folder
from stratpol.policy import Kind

ABOVE_TARGET = "n_count(c_some(r_transitive_closure(r_primitive(on,0,1)),c_primitive(clear_g,0)))"
HOLDING = "n_count(c_primitive(holding,0))"  # the paper's H; dlplan keeps the count, not b_empty


def _state_space(instance):
    index = {instance.initial_state: 0}
    order, transitions, queue = [instance.initial_state], [], deque([instance.initial_state])
    while queue:
        state = queue.popleft()
        for _, target, _ in instance.successors(state):
            if target not in index:
                index[target] = len(order)
                order.append(target)
                queue.append(target)
            transitions.append((index[state], index[target]))
    return order, transitions


def _clear_instance(domain, blocks: int):
    names = [f"b{i}" for i in range(1, blocks + 1)]
    tower = " ".join(f"(on {upper} {lower})" for lower, upper in zip(names, names[1:]))
    return domain.instance_from_text(
        f"(define (problem clear-{blocks}) (:domain blocksworld) (:objects {' '.join(names)})"
        f" (:init (arm-empty) (on-table b1) {tower} (clear {names[-1]})) (:goal (clear b1)))"
    )


@pytest.fixture(scope="module")
def blocks():
    domain = domain_folder("blocksworld").domain
    vocabulary = Vocabulary(domain, goal_predicates=["clear"])
    states, transitions = [], []
    for size in (3, 4):
        instance = _clear_instance(domain, size)
        bridge = vocabulary.bridge(instance)
        order, pairs = _state_space(instance)
        offset = len(states)
        states += [(bridge, s) for s in order]
        transitions += [(offset + a, offset + b) for a, b in pairs]
    return vocabulary, states, np.array(transitions)


GRAMMAR = Grammar("test", complexity_limit=6, max_depth=5, constructors=load_grammar("default").constructors)


def test_pool_has_the_papers_blocks_clear_features(blocks, tmp_path):
    vocabulary, states, _ = blocks
    pool = generate_pool(vocabulary, states, GRAMMAR, cache_dir=tmp_path)
    descriptions = {f.description for f in pool}
    assert ABOVE_TARGET in descriptions and HOLDING in descriptions
    assert [f.complexity for f in pool] == sorted(f.complexity for f in pool)
    assert all(f.depth <= 5 for f in pool)
    cached = generate_pool(vocabulary, states, GRAMMAR, cache_dir=tmp_path)
    assert [f.description for f in cached] == [f.description for f in pool]
    assert len(list(tmp_path.iterdir())) == 1


def test_bridge_values_equal_direct_counts_over_atoms(blocks):
    vocabulary, states, _ = blocks
    above = parse_feature(vocabulary, Kind.NUMERICAL, ABOVE_TARGET)
    holding = parse_feature(vocabulary, Kind.NUMERICAL, HOLDING)
    table = FeatureTable.evaluate([above, holding], states)
    for row, (bridge, state) in enumerate(states):
        on = {lower: upper for predicate, (upper, lower) in ((p, a) for p, a in state.atoms if p == "on")}
        count, block = 0, "b1"  # the goal asks b1 clear
        while block in on:
            block = on[block]
            count += 1
        assert table.values[row, 0] == count
        assert table.values[row, 1] == sum(p == "holding" for p, _ in state.atoms)


def test_gripper_pool_holds_ball_counts():
    folder = domain_folder("gripper")
    vocabulary = Vocabulary(folder.domain, goal_predicates=["at"])
    instance = folder.domain.instance_from_text(folder.generator(balls=3))
    bridge = vocabulary.bridge(instance)
    order, _ = _state_space(instance)
    states = [(bridge, s) for s in order]
    pool = generate_pool(vocabulary, states, GRAMMAR)
    carried = next(f for f in pool if f.description == "n_count(r_primitive(carry,0,1))")
    table = FeatureTable.evaluate([carried], states)
    assert list(table.values[:, 0]) == [sum(p == "carry" for p, _ in s.atoms) for s in order]


def test_pruning_keeps_the_simplest_of_equivalent_features(blocks):
    vocabulary, states, transitions = blocks
    pool = generate_pool(vocabulary, states, GRAMMAR)
    table = FeatureTable.evaluate(pool, states)
    s_kept = prune_equivalent(table)
    t_kept = prune_equivalent(table, transitions)
    assert set(t_kept) <= set(s_kept) and len(t_kept) < len(s_kept) <= len(pool)
    distinct = {table.values[:, j].tobytes() for j in range(len(pool))}
    assert len(s_kept) == len(distinct)
    for j in range(len(pool)):  # every dropped feature has an earlier, no more complex twin
        if j not in s_kept:
            twin = next(k for k in s_kept if np.array_equal(table.values[:, k], table.values[:, j]))
            assert twin < j and pool[twin].complexity <= pool[j].complexity
    changes = table.changes(transitions)
    assert set(np.unique(changes)) <= {-1, 0, 1}


@pytest.mark.parametrize("expression, depth", [
    ("c_primitive(on,0)", 0),
    ("n_count(c_primitive(holding,0))", 0),
    (ABOVE_TARGET, 2),
    ("b_empty(c_and(c_primitive(at-robby,0),c_some(r_primitive(at_g,1,0),c_top)))", 2),
])
def test_expression_depth(expression, depth):
    assert expression_depth(expression) == depth


def test_grammar_files_are_checked(tmp_path):
    assert set(load_grammar("default").constructors) == set(CONSTRUCTORS)
    bad = tmp_path / "bad.toml"
    bad.write_text("complexity_limit = 5\n[constructors]\nfancy_concept = true\n")
    with pytest.raises(InputError, match="unknown constructors"):
        load_grammar(bad)
    with pytest.raises(InputError, match="feature grammar not found"):
        load_grammar("nope")


# blocks two above a block whose goal is to be clear, through the composed role on o on: the
# published constructors (the test grammar's) do not compose roles
LISTED = "n_count(c_some(r_compose(r_primitive(on,0,1),r_primitive(on,0,1)),c_primitive(clear_g,0)))"


def test_a_grammar_adds_the_features_it_lists_to_the_generated_pool(blocks, tmp_path):
    vocabulary, states, _ = blocks
    parent = tmp_path / "parent.toml"
    default = grammars_root() / "default.toml"  # GRAMMAR's limits and constructors
    parent.write_text(f'extends = "{default}"\ncomplexity_limit = 6\nfeatures = ["{HOLDING}"]\n')
    child = tmp_path / "child.toml"
    child.write_text(f'extends = "parent"\nfeatures = ["{LISTED}", "{HOLDING}"]\n')
    grammar = load_grammar(child)
    assert grammar.features == (HOLDING, LISTED) and grammar.complexity_limit == 6
    generated = generate_pool(vocabulary, states, GRAMMAR, cache_dir=tmp_path / "cache")
    pool = generate_pool(vocabulary, states, grammar, cache_dir=tmp_path / "cache")
    assert LISTED not in {f.description for f in generated}
    added = [f for f in pool if f.description not in {g.description for g in generated}]
    assert [(f.description, f.complexity) for f in added] == [(LISTED, 6)]
    assert [f.complexity for f in pool] == sorted(f.complexity for f in pool)
    # the generated part is cached under the same key: listed features do not make a new pool
    assert len(list((tmp_path / "cache").iterdir())) == 1


def test_listed_features_are_checked(blocks, tmp_path):
    vocabulary, states, _ = blocks
    bad = tmp_path / "bad.toml"
    bad.write_text('features = ["c_primitive(on,0)"]\n')
    with pytest.raises(InputError, match="features must be a list of dlplan"):
        load_grammar(bad)
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('complexity_limit = 2\nfeatures = ["n_count(c_primitive(lifted,0))"]\n')
    with pytest.raises(InputError, match=r"unknown.toml: cannot parse numerical feature .*lifted"):
        generate_pool(vocabulary, states, load_grammar(unknown), cache_dir=tmp_path)


def test_vocabulary_rejects_instances_of_another_parse():
    from stratpol.planning import Domain

    vocabulary = Vocabulary(domain_folder("gripper").domain)
    other = Domain(domain_folder("gripper").domain_file)
    with pytest.raises(ValueError, match="another parsed domain"):
        vocabulary.bridge(other.instance_from_text(domain_folder("gripper").generator(balls=1)))


def test_a_domain_with_equality_gives_a_pool_that_reloads_from_the_cache(tmp_path):
    # the reward domain declares :equality and pymimir lists "=" among its predicates: PDDL's
    # built-in equality is no vocabulary predicate, so no feature mentions it (dlplan could not
    # parse such a feature back from the cached text)
    folder = domain_folder("reward")
    domain = folder.domain
    assert ":equality" in domain.text and "=" not in domain.predicates
    vocabulary = Vocabulary(domain)
    instance = domain.instance_from_text(folder.generator(rows=2, columns=3, rewards=2, seed=0))
    bridge = vocabulary.bridge(instance)
    order, _ = _state_space(instance)
    states = [(bridge, s) for s in order[:40]]
    pool = generate_pool(vocabulary, states, GRAMMAR, cache_dir=tmp_path)
    cached = generate_pool(vocabulary, states, GRAMMAR, cache_dir=tmp_path)
    assert [f.description for f in cached] == [f.description for f in pool]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(1, 12), st.integers(0, 2**32 - 1))
def test_pruning_on_the_rows_of_the_transitions_keeps_the_same_columns(rows, columns, seed):
    """The learner prunes on the rows its transitions use; other rows must not change the result."""
    rng = np.random.default_rng(seed)
    values = rng.integers(0, 3, size=(rows + 4, columns)).astype(np.int32)
    table = FeatureTable([None] * columns, values)
    used = sorted(rng.choice(rows + 4, size=rows, replace=False).tolist())
    transitions = rng.choice(used, size=(rng.integers(1, 5), 2))
    local = {row: i for i, row in enumerate(used)}
    on_used = FeatureTable([None] * columns, values[used])
    remapped = np.vectorize(local.get)(transitions)
    assert prune_equivalent(on_used, remapped) == prune_equivalent(table, transitions)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_pruning_keeps_the_first_column_of_each_group_of_equal_columns(rows, columns, seed):
    values = np.random.default_rng(seed).integers(-1, 2, size=(rows, columns)).astype(np.int32)
    first: dict[bytes, int] = {}
    for j in range(columns):
        first.setdefault(values[:, j].tobytes(), j)
    assert prune_equivalent(FeatureTable([None] * columns, values)) == sorted(first.values())


def test_an_unparsable_feature_is_one_line_with_dlplan_s_reason(capfd):
    vocabulary = Vocabulary(domain_folder("gripper").domain)
    with pytest.raises(ValueError) as error:
        parse_feature(vocabulary, Kind.NUMERICAL, "n_count(c_some(r_primitive(at,0,1),c_one_of(rooma)))")
    assert str(error.value).endswith(": undefined constant 'rooma'")
    assert capfd.readouterr().err == ""  # dlplan's own report does not reach the terminal


def test_a_role_distance_reads_back_from_its_description():
    """dlplan prints n_role_distance as n_role_distance_numerical, which its parser rejects: a
    policy or pool holding one could not be loaded again."""
    vocabulary = Vocabulary(domain_folder("gripper").domain)
    expression = "n_role_distance(r_primitive(carry,0,1),r_primitive(at,0,1),r_primitive(at_g,0,1))"
    feature = parse_feature(vocabulary, Kind.NUMERICAL, expression)
    assert feature.description == expression
    assert parse_feature(vocabulary, Kind.NUMERICAL, feature.description).description == expression


@pytest.mark.parametrize("built_first", [[], ["n_count(r_primitive(at_g,0,1))"], ["n_count(r_primitive(at,0,1))"]])
def test_a_feature_reads_the_same_whatever_the_vocabulary_built_before(built_first):
    """dlplan prints r_and's arguments in the order its factory first built them: without a
    canonical text a pool read from the cache wrote a policy's feature differently from the same
    pool generated fresh (r_and(at_g, at) against r_and(at, at_g))."""
    vocabulary = Vocabulary(domain_folder("gripper").domain)
    # held, since dlplan's factory forgets the elements nobody holds
    held = [parse_feature(vocabulary, Kind.NUMERICAL, expression) for expression in built_first]
    texts = {parse_feature(vocabulary, Kind.NUMERICAL, f"n_count(r_and({first},{second}))").description
             for first, second in [("r_primitive(at,0,1)", "r_primitive(at_g,0,1)"),
                                   ("r_primitive(at_g,0,1)", "r_primitive(at,0,1)")]}
    assert len(held) == len(built_first)
    assert texts == {"n_count(r_and(r_primitive(at,0,1),r_primitive(at_g,0,1)))"}


def test_a_pool_generated_in_parts_keeps_the_features_of_the_whole(blocks, monkeypatch):
    """Where memory is short the pool is generated on parts of the states and merged: the merged
    pool has one feature per kind and valuation, and the valuations of the one-part pool."""
    import stratpol.features.pool as pool_module

    vocabulary, states, _ = blocks
    whole = generate_pool(vocabulary, states, GRAMMAR)
    monkeypatch.setattr(pool_module, "parts_within_memory", lambda states, element_limit: 2)
    messages = []
    merged = generate_pool(vocabulary, states, GRAMMAR, progress=messages.append)
    assert merged.generation.parts == 2 and "in 2 parts" in merged.generation.describe()
    assert len(messages) == 3 and messages[1].startswith("feature pool: part 2/2")
    assert messages[-1].startswith("feature pool: merging")
    assert ABOVE_TARGET in {f.description for f in merged} and HOLDING in {f.description for f in merged}

    def valuations(pool):
        table = FeatureTable.evaluate(pool, states)
        return [(f.kind, table.values[:, j].tobytes()) for j, f in enumerate(pool)]

    merged_valuations = valuations(merged)
    assert len(set(merged_valuations)) == len(merged_valuations)
    assert set(valuations(whole)) <= set(merged_valuations)
    assert [f.complexity for f in merged] == sorted(f.complexity for f in merged)


def test_an_interrupted_pool_in_parts_resumes_after_its_last_finished_part(blocks, monkeypatch, tmp_path):
    import stratpol.features.pool as pool_module

    vocabulary, states, _ = blocks
    monkeypatch.setattr(pool_module, "parts_within_memory", lambda states, element_limit: 3)
    generated = []
    generate_on = pool_module._generate_on
    monkeypatch.setattr(pool_module, "_generate_on", lambda *args: generated.append(len(args[2])) or generate_on(*args))

    def interrupt_after_part_2(message: str) -> None:
        if message.startswith("feature pool: part 2/3"):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate_pool(vocabulary, states, GRAMMAR, cache_dir=tmp_path, progress=interrupt_after_part_2)
    assert len(generated) == 2 and len(list(tmp_path.glob("pool-*.part-*-of-3.json"))) == 2
    assert all(".part-" in p.name for p in tmp_path.iterdir())  # no pool until it is whole
    # fewer parts would fit now: the interrupted run's split is kept, and only part 3 is generated
    monkeypatch.setattr(pool_module, "parts_within_memory", lambda states, element_limit: 1)
    resumed = generate_pool(vocabulary, states, GRAMMAR, cache_dir=tmp_path)
    assert len(generated) == 3 and resumed.generation.parts == 3
    assert [p.name.count(".part-") for p in tmp_path.iterdir()] == [0]  # the parts are gone, the pool stays
    monkeypatch.setattr(pool_module, "parts_within_memory", lambda states, element_limit: 3)
    uninterrupted = generate_pool(vocabulary, states, GRAMMAR)
    assert [f.description for f in resumed] == [f.description for f in uninterrupted]


def test_dlplan_generates_in_a_child_whose_failures_come_back_as_one_error(blocks, monkeypatch):
    """The generator runs in a forked child (so that an interrupt stops it at once): its error is
    raised here, and a child killed (as by the system when memory runs out) is one clear error."""
    import os
    import signal

    import stratpol.features.pool as pool_module

    vocabulary, states, _ = blocks

    def fails(*args, **kwargs):
        raise ValueError("no features today")

    monkeypatch.setattr(pool_module, "generate_features", fails)
    with pytest.raises(ValueError, match="no features today"):
        generate_pool(vocabulary, states, GRAMMAR)
    monkeypatch.setattr(pool_module, "generate_features", lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL))
    with pytest.raises(RuntimeError, match=r"without a result \(exit code -9"):
        generate_pool(vocabulary, states, GRAMMAR)


def test_a_pool_generated_off_the_main_thread_is_the_same(blocks):
    """A Dask worker learns in a thread of a daemonic process, where no child may be forked:
    dlplan then runs in the process itself, with the same pool."""
    import threading

    vocabulary, states, _ = blocks
    pools = []
    worker = threading.Thread(target=lambda: pools.append(generate_pool(vocabulary, states, GRAMMAR)))
    worker.start()
    worker.join()
    assert [f.description for f in pools[0]] == [f.description for f in generate_pool(vocabulary, states, GRAMMAR)]


def test_parts_within_memory_splits_only_when_the_elements_do_not_fit(monkeypatch):
    import stratpol.features.pool as pool_module

    monkeypatch.setattr(pool_module, "memory_element_limit", lambda states: 10_000_000 // states)
    assert pool_module.parts_within_memory(1_000, 10_000) == 1
    assert pool_module.parts_within_memory(2_500, 10_000) == 3
    assert pool_module.parts_within_memory(250, 2_000_000) == 3  # parts of at least 100 states
