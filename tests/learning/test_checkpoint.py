"""A WRAPPER run stopped after an outer iteration goes on from its checkpoint to the policy the whole
run learns; a checkpoint of another run, or a broken one, is refused in one line."""

from __future__ import annotations

import json

import pytest

from stratpol.errors import InputError
from stratpol.features import Vocabulary
from stratpol.generation import domain_folder
from stratpol.learning.checkpoint import FORMAT, KeptRepairs, WrapperCheckpoint, read_checkpoint, write_checkpoint
from stratpol.learning.result import LearningInterrupted
from stratpol.learning.settings import LearningSettings
from stratpol.learning.teacher import Teacher
from stratpol.learning.wrapper import learn_policy
from stratpol.policy.text import format_policy
from tests.helpers import gripper_instances


@pytest.fixture(scope="module")
def gripper():
    folder = domain_folder("gripper")
    instances = gripper_instances(1, 2, 3, 4)
    return instances, Vocabulary(folder.domain)


def _learn(gripper, cache, instances=None, keep_repairs=False, **options):
    every, vocabulary = gripper
    settings = LearningSettings(instance_order="shortest", strategy="grow", keep_repairs=keep_repairs)
    return learn_policy(instances or every, vocabulary, settings, Teacher("siw", cache_dir=cache / "plans"),
                        cache_dir=cache / "pools", **options)


@pytest.mark.parametrize("keep_repairs", [False, True])
def test_a_run_resumed_from_its_checkpoint_learns_what_the_whole_run_learns(gripper, tmp_path, keep_repairs):
    whole = _learn(gripper, tmp_path, keep_repairs=keep_repairs)
    assert whole.statistics.outer_iterations >= 2  # else there is nothing to resume
    checkpoint = tmp_path / "run.checkpoint"

    def interrupt_after_the_first_checkpoint(message: str) -> None:
        if message.startswith("inner") and checkpoint.exists():
            raise KeyboardInterrupt

    with pytest.raises(LearningInterrupted):
        _learn(gripper, tmp_path, checkpoint=checkpoint, keep_repairs=keep_repairs,
               progress=interrupt_after_the_first_checkpoint)
    saved = json.loads(checkpoint.read_text())
    assert saved["outer_iterations"] == 1 and saved["strategy"] == "grow" and len(saved["subset"]) == 2
    assert saved["run"]["instances"] == ["gripper-1", "gripper-2", "gripper-3", "gripper-4"]
    # gripper-1's first policy was repaired in outer 1: a run that keeps repairs keeps them in the file
    assert bool(saved["repairs"]) == keep_repairs == saved["run"]["keep_repairs"]

    messages = []
    resumed = _learn(gripper, tmp_path, checkpoint=checkpoint, keep_repairs=keep_repairs, progress=messages.append)
    assert any(m.startswith(f"resumed from {checkpoint}: outer 1 done") for m in messages)
    assert format_policy(resumed.policy) == format_policy(whole.policy)
    assert resumed.statistics.outer_iterations == whole.statistics.outer_iterations
    assert resumed.statistics.good == whole.statistics.good  # the good transitions of the last GENEX call
    assert [v.solved for v in resumed.verifications] == [v.solved for v in whole.verifications]


def test_a_checkpoint_of_another_run_is_refused_naming_what_differs(gripper, tmp_path):
    checkpoint = tmp_path / "run.checkpoint"
    _learn(gripper, tmp_path, checkpoint=checkpoint)
    with pytest.raises(InputError, match=r"run\.checkpoint: checkpoint of another run \(seed differ\)"):
        _learn(gripper, tmp_path, checkpoint=checkpoint, seed=1)
    with pytest.raises(InputError, match=r"instances differ"):
        _learn(gripper, tmp_path, gripper[0][:3], checkpoint=checkpoint)


def test_a_file_that_is_not_a_checkpoint_is_refused_in_one_line(tmp_path):
    broken = tmp_path / "broken.checkpoint"
    broken.write_text(json.dumps({"format": FORMAT, "run": {}}))
    with pytest.raises(InputError, match=r"broken\.checkpoint: not a WRAPPER checkpoint \(KeyError"):
        read_checkpoint(broken)
    broken.write_text("policy")
    with pytest.raises(InputError, match=r"not a WRAPPER checkpoint \(JSONDecodeError"):
        read_checkpoint(broken)
    assert read_checkpoint(tmp_path / "none.checkpoint") is None


def test_a_wrong_checkpoint_is_refused_before_any_work_and_an_unwritable_one_in_one_line(gripper, tmp_path):
    broken = tmp_path / "broken.checkpoint"
    broken.write_text("policy")
    messages = []
    with pytest.raises(InputError, match="not a WRAPPER checkpoint"):
        _learn(gripper, tmp_path, checkpoint=broken, progress=messages.append)
    assert messages == []  # no teacher plan, no pool
    with pytest.raises(InputError, match=r": cannot read the checkpoint: Is a directory"):
        _learn(gripper, tmp_path, checkpoint=tmp_path)
    blocked = tmp_path / "file"
    blocked.write_text("")
    with pytest.raises(InputError, match=r"file/run\.checkpoint: cannot write the checkpoint"):
        _learn(gripper, tmp_path, checkpoint=blocked / "run.checkpoint")


def test_a_checkpoint_reads_back_as_written_and_one_of_the_old_format_is_refused(tmp_path):
    def state(*names: str) -> tuple:
        return tuple(("at", (name,)) for name in names)

    kept = KeptRepairs(1, ((state("a"), state("b")),), ((state("b"), state("c")),), (state("a"), state("b")))
    saved = WrapperCheckpoint({"domain": "gripper", "instances": ["p1.pddl", "p2.pddl"]}, "grow", (0, 1), 3, 7,
                              (kept,))
    path = tmp_path / "run.checkpoint"
    write_checkpoint(path, saved)
    assert read_checkpoint(path) == saved
    path.write_text(json.dumps({"format": "stratpol-wrapper-checkpoint-1", "run": {}}))  # a checkpoint of an older format
    with pytest.raises(InputError, match=r"format 'stratpol-wrapper-checkpoint-1', expected " + FORMAT):
        read_checkpoint(path)
