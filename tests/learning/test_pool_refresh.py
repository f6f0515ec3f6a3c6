"""A pool generated again where GENEX fails (LearningSettings.refresh_pool): on the pool's own
states and the states the failing call read, so that features the pool's states alone could not
tell apart from a simpler twin come back."""

from __future__ import annotations

from stratpol.features import Vocabulary, generate_pool, load_grammar
from stratpol.generation import domain_folder
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import LearningStatistics, PoolRefresh, _Rows


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
    messages, statistics = [], LearningStatistics()
    refresh = PoolRefresh(vocabulary, grammar, first)

    def refreshed(failed_on: list[int]) -> bool:
        return refresh.refreshed(rows, failed_on, statistics, messages.append)

    assert refreshed(met)
    assert len(rows.pool) > len(pool) and statistics.refreshed == 1 and statistics.pool == len(rows.pool)
    assert "generating again on" in messages[0] and f"{len(met) - 2:,} of them where GENEX failed" in messages[0]
    after = rows.table(met)
    assert after.values.shape == (len(met), len(rows.pool)) and len(set(map(tuple, after.values))) > \
        len(set(map(tuple, before)))  # the new features tell apart states the old ones did not
    assert rows.row(1, bridges[1], plans[1][3]) == met[len(plans[0]) + 3]  # the same numbers

    assert not refreshed(met[:5])  # the pool was generated on these rows already
    state = next(s.state for s in instances[1].successors(plans[1][1]) if s.state not in plans[1])
    repaired = rows.row(1, bridges[1], state)  # a state off the plans
    assert refreshed([*met, repaired]) and statistics.refreshed == 2
    again = rows.row(2, bridges[0], plans[0][0])  # another row of a state the pool was made on
    assert not refreshed([*met, repaired, again])  # generated again, no more features
    assert "no more features" in messages[-1] and statistics.refreshed == 2
