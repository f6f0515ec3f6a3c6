"""Transition models: they fit the teacher's transitions, and a saved model predicts exactly as before."""

from __future__ import annotations

import numpy as np
import pytest

from neural.data import teacher_data
from neural.wl.features import WLFeatures
from neural.wl.model_choice import load_model, new_model
from neural.wl.models import distances, target
from neural.wl.train import embed_trajectories


@pytest.fixture(scope="module")
def embedded(wl_teacher_cache):
    trajectories = teacher_data("gripper", [6, 7, 8], 1, planner_name="astar-lmcut", heuristics=False,
                                cache_dir=wl_teacher_cache)
    features = WLFeatures.collect(trajectories[0].instance.domain, (s for t in trajectories for s in t.states))
    return embed_trajectories(features, trajectories), features.dimension


@pytest.mark.parametrize("model", ["xgb", "lstm"])
@pytest.mark.parametrize("mode", ["state", "delta"])
def test_saved_model_predicts_the_same(embedded, model, mode, tmp_path):
    trajectories, dimension = embedded
    transition = new_model(model, mode, dimension, seed=1, epochs=30 if model == "lstm" else 50)
    report = transition.fit(trajectories[:2], trajectories[2:])
    assert report.best_iteration >= 1 and report.validation_loss is not None
    states, goal = trajectories[2].states, trajectories[2].goal
    memories = [None] * len(states)
    before, after_memories = transition.predict(states, goal, memories)
    transition.save(tmp_path)
    reloaded = load_model(model, mode, dimension, tmp_path)
    again, again_memories = reloaded.predict(states, goal, memories)
    assert before.shape == (len(states), dimension)
    assert np.array_equal(before, again)
    if model == "lstm":  # the memory it hands on is the same too, and it is used
        second, _ = transition.predict(states, goal, after_memories)
        assert np.array_equal(second, reloaded.predict(states, goal, again_memories)[0])
        assert not np.array_equal(second, before)


def test_xgb_learns_the_teacher_transitions(embedded):
    trajectories, dimension = embedded
    transition = new_model("xgb", "delta", dimension, seed=0)
    transition.fit(trajectories, [])
    for trajectory in trajectories:
        wanted = target(transition.predict(trajectory.states[:-1], trajectory.goal,
                                           [None] * (len(trajectory.states) - 1))[0],
                        trajectory.states[:-1], "delta")
        # each predicted v_t is nearer the true successor than the state it came from
        for t, v in enumerate(wanted):
            near = distances(trajectory.states[t:t + 2], v, "delta")
            assert near[1] < near[0]


def test_cosine_distance_of_state_mode():
    candidates = np.array([[1.0, 0.0], [0.0, 2.0], [0.0, 0.0]])
    assert np.allclose(distances(candidates, np.array([0.0, 1.0]), "state"), [1.0, 0.0, 1.0])
    assert np.allclose(distances(candidates, np.array([0.0, 1.0]), "delta"), [np.sqrt(2), 1.0, 1.0])


def test_vector_leaf_trees_reload_and_are_fewer(embedded, tmp_path):
    trajectories, dimension = embedded
    per_output = new_model("xgb", "delta", dimension, epochs=5)
    per_output.fit(trajectories, [])
    vector = new_model("xgb", "delta", dimension, epochs=5, xgb_trees="vector")
    vector.fit(trajectories, [])
    assert vector.booster.num_boosted_rounds() == 5
    assert len(vector.booster.get_dump()) == 5 < len(per_output.booster.get_dump())
    vector.save(tmp_path)
    states, goal = trajectories[0].states, trajectories[0].goal
    assert np.array_equal(vector.predict(states, goal, [None] * len(states))[0],
                          load_model("xgb", "delta", dimension, tmp_path).predict(states, goal, [None] * len(states))[0])
