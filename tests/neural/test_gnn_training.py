"""Teacher data, training with model selection, checkpoints and the GNN policies on Gripper."""

from __future__ import annotations

import json

import pytest
import torch

from stratpol.errors import InputError
from stratpol.evaluation import run
from stratpol.generation import domain_folder
from stratpol.method_settings import GNNTraining
from neural.data import DEAD_END_VALUE, optimal_trajectory, teacher_data
from neural.policies import CHECKPOINT_FILES, GNNPolicy, load_gnn_policy, pick_device
from neural.train import train_gnn, train_on_generated
from stratpol.planning.plans import validate_plan
from stratpol.provenance import Provenance, claim_folder

GRIPPER = domain_folder("gripper")


def _gripper(balls: int):
    return GRIPPER.domain.instance_from_text(GRIPPER.generator(balls=balls))


def test_labels_of_an_optimal_trajectory(tmp_path):
    trajectory = optimal_trajectory(_gripper(2), "astar-lmcut", cache_dir=tmp_path)
    assert len(trajectory.plan) == 5  # pick, pick, move, drop, drop
    assert [label.cost_to_go for label in trajectory.labels] == [5, 4, 3, 2, 1]
    for label in trajectory.labels:
        teacher = label.actions[label.teacher]
        assert teacher == trajectory.plan[trajectory.labels.index(label)]
        # h^LMcut is admissible: the teacher's successor is at most h* - 1 away from the goal
        assert label.successor_heuristics[label.teacher] <= label.cost_to_go - 1
        assert all(0 <= h < DEAD_END_VALUE for h in label.successor_heuristics)
    # a second call reads the cache and gives the same labels
    again = optimal_trajectory(_gripper(2), "astar-lmcut", cache_dir=tmp_path)
    assert [lab.successor_heuristics for lab in again.labels] == [lab.successor_heuristics for lab in trajectory.labels]


def test_teacher_data_takes_what_each_size_has(tmp_path):
    # Gripper has one instance per size (the number of balls fixes it): asking for three gives one
    trajectories = teacher_data("gripper", [5, 6], 3, planner_name="astar-lmcut", heuristics=False, cache_dir=tmp_path)
    assert [t.size for t in trajectories] == [5, 6]


def test_only_optimal_teachers():
    with pytest.raises(ValueError):
        optimal_trajectory(_gripper(1), "lama-first")


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny models: threads cost more than they give
    out = tmp_path_factory.mktemp("gnn")
    trajectories = teacher_data("gripper", range(5, 10), 1, planner_name="astar-lmcut", heuristics=False,
                                cache_dir=out / "cache")
    config = GNNTraining(value="q-exp", epochs=100, hidden=16, layers=6, batch_size=16, device="cpu",
                         validation_instances=1, validation_sizes=3, validate_every=10, validation_growth=3)
    yield out / "model", train_gnn("gripper", trajectories, config, out / "model")
    torch.set_num_threads(threads)


def test_a_few_epochs_of_q_exp_solve_small_gripper(trained):
    folder, report = trained
    assert report.best_score is not None and report.best_score > 0
    policy = load_gnn_policy(folder, "cpu")
    for balls in range(1, 9):
        instance = _gripper(balls)
        outcome = run(policy, instance, 200)
        assert outcome.solved, f"{balls} balls: {outcome.failure}"
        assert validate_plan(instance, outcome.plan).valid


def test_the_validation_window_grows_so_a_later_checkpoint_can_win(trained):
    # sizes 10-12 at first; a checkpoint that solves all of them grows the window by 3
    _, report = trained
    judged = [e for e in report.epochs if e.validation is not None]
    assert judged[0].window_end == 12
    ends = [e.window_end for e in judged]
    assert ends == sorted(ends) and ends[-1] > 12
    first_to_fill = next(e for e in judged if e.window_end > 12)
    assert report.best_epoch > first_to_fill.epoch  # with a fixed window the first would have stayed
    final = [e for e in judged if e.window_end == ends[-1]]
    assert report.best_score >= max(e.validation for e in final)


def test_checkpoint_round_trip(trained):
    folder, report = trained
    meta = json.loads((folder / "gnn.json").read_text())
    assert meta["value"] == "q-exp" and meta["training"]["epoch"] == report.best_epoch
    first, second = load_gnn_policy(folder, "cpu"), load_gnn_policy(folder, "cpu")
    instance = _gripper(4)
    successors = sorted(instance.successors(instance.initial_state), key=lambda s: str(s.action))
    assert torch.equal(first.scores(instance.initial_state, successors),
                       second.scores(instance.initial_state, successors))


def test_a_value_policy_never_revisits(trained):
    # an untrained V model still only moves to states it has not been in
    from neural.encoding import StateEncoder
    from neural.rgnn import RelationalGNN, RGNNConfig

    encoder = StateEncoder(GRIPPER.domain, actions=False)
    policy = GNNPolicy(RelationalGNN(RGNNConfig(encoder.relations, "value", 8, 2)), encoder)
    outcome = run(policy, _gripper(3), 60)
    assert outcome.failure is None or outcome.failure.value != "revisit"


def test_broken_checkpoints_are_input_errors(tmp_path, trained):
    with pytest.raises(InputError, match="not a GNN checkpoint"):
        load_gnn_policy(tmp_path)
    folder, _ = trained
    (tmp_path / "gnn.json").write_text((folder / "gnn.json").read_text())
    (tmp_path / "model.pt").write_bytes(b"not weights")
    with pytest.raises(InputError, match="cannot load the weights"):
        load_gnn_policy(tmp_path)


def test_device_choice():
    assert pick_device("cpu").type == "cpu"
    assert pick_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    with pytest.raises(InputError):
        pick_device("tpu")


def test_patience_stops_when_validation_does_not_improve(tmp_path):
    # a learning rate of 0 keeps the model, so every validation after the first ties the best
    trajectories = teacher_data("gripper", [5, 6], 1, planner_name="astar-lmcut", heuristics=False,
                                cache_dir=tmp_path / "cache")
    config = GNNTraining(value="q", epochs=10, hidden=4, layers=1, learning_rate=0.0, device="cpu",
                         validation_instances=1, validation_sizes=1, validate_every=1, patience=2)
    report = train_gnn("gripper", trajectories, config, tmp_path / "model")
    assert [e.epoch for e in report.epochs] == [1, 2, 3] and report.best_epoch == 1


def test_a_checkpoint_folder_of_other_settings_is_refused_before_any_work(tmp_path):
    model = tmp_path / "model"
    claim_folder(model, Provenance("GNN training", "generator", "gripper", {"value": "v"}), CHECKPOINT_FILES)
    (model / "gnn.json").write_text("{}")
    with pytest.raises(InputError, match="holds the results of another GNN training"):
        train_on_generated("gripper", GNNTraining(value="q-exp", planner="astar-lmcut", per_size=1), model,
                           range(5, 6), cache_dir=tmp_path / "cache")
    assert (model / "gnn.json").read_text() == "{}" and not (tmp_path / "cache").exists()


def test_one_run_keeps_the_checkpoints_fixed_set_loss_and_coverage_select(tmp_path):
    # the scaling paper's comparison: the same training run, three selection criteria
    from stratpol.method_settings import selected_checkpoint
    from neural.selection import fixed_validation_set

    trajectories = teacher_data("gripper", [5, 6], 1, planner_name="astar-lmcut", heuristics=False,
                                cache_dir=tmp_path / "cache")
    fixed_set = fixed_validation_set("gripper", 6, 1, 0, "astar-lmcut", 30, heuristics=False,
                                     cache_dir=tmp_path / "cache")
    assert [t.size for t in fixed_set] == [7, 8, 9]  # the three sizes above the largest training size
    config = GNNTraining(value="v", epochs=4, hidden=4, layers=2, device="cpu", validation_instances=1,
                         validation_sizes=1, validate_every=2, fixed_validation=1)
    report = train_gnn("gripper", trajectories, config, tmp_path / "model", fixed_set=fixed_set)
    fixed = [e.fixed for e in report.epochs if e.fixed is not None]
    assert [e.epoch for e in report.epochs if e.fixed is not None] == [2, 4]
    assert all(f.loss > 0 and 0 <= f.coverage <= 1 for f in fixed)
    losses = {e.epoch: e.fixed.loss for e in report.epochs if e.fixed is not None}
    assert report.selected["fixed-loss"] == min(losses, key=lambda epoch: (losses[epoch], epoch))
    for criterion in ("fixed-loss", "fixed-coverage"):
        meta = json.loads((selected_checkpoint(tmp_path / "model", criterion) / "gnn.json").read_text())
        assert meta["training"]["selected_by"] == criterion
        assert meta["training"]["epoch"] == report.selected[criterion]
        load_gnn_policy(selected_checkpoint(tmp_path / "model", criterion), "cpu")
    assert "fixed-loss selects epoch" in report.describe("gripper")


@pytest.mark.parametrize("with_fixed_set", [False, True])
def test_dynamic_validation_ends_once_a_checkpoint_solves_a_window_that_cannot_grow(tmp_path, with_fixed_set):
    # a fixed window of two sizes: once a checkpoint solves all of it, a later one could only tie
    # (ties keep the earlier), so the epochs after it are not run, or, where the fixed-set criteria
    # still choose, run without dynamic validation
    from neural.selection import fixed_validation_set

    trajectories = teacher_data("gripper", range(5, 10), 1, planner_name="astar-lmcut", heuristics=False,
                                cache_dir=tmp_path / "cache")
    fixed_set = fixed_validation_set("gripper", 9, 1, 0, "astar-lmcut", 30, heuristics=False,
                                     cache_dir=tmp_path / "cache") if with_fixed_set else ()
    config = GNNTraining(value="q-exp", epochs=60, hidden=16, layers=6, batch_size=16, device="cpu",
                         validation_instances=1, validation_sizes=2, validate_every=5,
                         fixed_validation=1 if with_fixed_set else 0)
    lines = []
    report = train_gnn("gripper", trajectories, config, tmp_path / "model", progress=lines.append, fixed_set=fixed_set)
    judged = [e for e in report.epochs if e.validation is not None]
    assert report.best_score == 2.0 and judged[-1].epoch == report.best_epoch < 60
    assert judged[-1].validation == 2.0 and all(e.validation < 2.0 for e in judged[:-1])
    if with_fixed_set:
        assert len(report.epochs) == 60
        assert [e.epoch for e in report.epochs if e.fixed is not None] == list(range(5, 61, 5))
    else:
        assert report.epochs[-1].epoch == report.best_epoch
        assert lines[-1].startswith(f"stopping: epoch {report.best_epoch} solves the whole validation window")
