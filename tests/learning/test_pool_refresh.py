"""A pool generated again where GENEX fails (LearningSettings.refresh_pool): on the pool's own
states and the states learning met, so that features the pool's states alone could not tell
apart from a simpler twin come back."""

from __future__ import annotations

from stratpol.features import Vocabulary, generate_pool, load_grammar
from stratpol.generation import domain_folder
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import LearningStatistics, _pool_on_met_states, _refreshed_pool, _Rows, _Run


def test_the_rows_read_a_pool_generated_again_on_the_states_met_and_keep_their_numbers(tmp_path):
    folder = domain_folder("gripper")
    instances = [folder.domain.instance_from_text(folder.generator(balls=n)) for n in (2, 4)]
    vocabulary = Vocabulary(folder.domain)
    teacher = Teacher("siw", cache_dir=tmp_path / "plans")
    bridges = [vocabulary.bridge(instance) for instance in instances]
    plans = [teacher.advise(instance).states for instance in instances]
    grammar = load_grammar("default")
    first = [(bridges[0], state) for state in plans[0][:2]]  # two states: few features told apart
    pool = generate_pool(vocabulary, first, grammar)
    rows = _Rows(pool)
    met = [rows.row(number, bridges[number], state) for number, plan in enumerate(plans) for state in plan]
    before = rows.table(met).values
    messages = []
    run = _Run(vocabulary, teacher, 0, 1000, None, True, None, None, 1, LearningStatistics(), messages.append)
    run.refresh_pool = _pool_on_met_states(vocabulary, first, grammar, None, messages.append)

    assert _refreshed_pool(run, rows)
    assert len(rows.pool) > len(pool) and run.statistics.refreshed == 1 and run.statistics.pool == len(rows.pool)
    assert "generating again on" in messages[0] and f"{len(rows.entries) - 2:,} of them met" in messages[0]
    after = rows.table(met)
    assert after.values.shape == (len(met), len(rows.pool)) and len(set(map(tuple, after.values))) > \
        len(set(map(tuple, before)))  # the new features tell apart states the old ones did not
    assert rows.row(1, bridges[1], plans[1][3]) == met[len(plans[0]) + 3]  # the same numbers

    assert not _refreshed_pool(run, rows)  # no state met since: nothing to generate again
    rows.row(1, bridges[1], instances[1].initial_state)  # a state met before (the plan's first)
    assert not _refreshed_pool(run, rows)
