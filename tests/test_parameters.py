"""Settings declared once: the fields give the checks, the command-line options and the TOML reading."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from stratpol.evaluation.protocol import GRID_PROTOCOL, ScalingSettings
from stratpol.parameters import ParameterError, add_options, from_mapping, from_options


def test_every_protocol_field_is_an_option_with_its_default_and_range():
    parser = argparse.ArgumentParser()
    add_options(parser, ScalingSettings())
    assert from_options(ScalingSettings(), parser.parse_args([])) == ScalingSettings()
    args = parser.parse_args(["--epsilon", "0.2", "--max-size", "12", "--forbid-revisits", "--seconds-per-size", "4"])
    assert from_options(ScalingSettings(), args) == ScalingSettings(epsilon=0.2, max_size=12, forbid_revisits=True,
                                                                    seconds_per_size=4.0)
    options = {action.dest for action in parser._actions} - {"help"}
    assert options == {f.name for f in dataclasses.fields(ScalingSettings)}


def test_a_table_is_read_with_the_same_types_and_ranges():
    read = from_mapping(GRID_PROTOCOL, {"max_size": 12, "seconds_per_size": 5, "tau": 0.5})
    assert read == dataclasses.replace(GRID_PROTOCOL, max_size=12, seconds_per_size=5.0, tau=0.5)
    with pytest.raises(ParameterError, match="kappa: must be in \\(0, 1\\), not 2"):
        from_mapping(GRID_PROTOCOL, {"kappa": 2})
    with pytest.raises(ParameterError, match="zeta: expected int, got float 1.5"):
        from_mapping(GRID_PROTOCOL, {"zeta": 1.5})
    with pytest.raises(ParameterError, match="forbid_revisits: expected bool"):
        from_mapping(GRID_PROTOCOL, {"forbid_revisits": 1})


def test_settings_out_of_range_are_refused_in_the_library_too():
    with pytest.raises(ValueError, match="epsilon must be in"):
        ScalingSettings(epsilon=0)
    with pytest.raises(ValueError, match="budget_clock: 'cpu' needs a time budget"):
        ScalingSettings(budget_clock="cpu")
    assert ScalingSettings(budget_clock="cpu", seconds_per_size=1.0).budget_clock == "cpu"


def test_grids_differ_from_the_protocol_defaults_in_three_budgets_only():
    changed = {f.name for f in dataclasses.fields(ScalingSettings)
               if getattr(GRID_PROTOCOL, f.name) != getattr(ScalingSettings(), f.name)}
    assert changed == {"epsilon", "max_size", "seconds_per_size"}


@pytest.mark.parametrize("command, settings, extra", [
    ("train-gnn", "GNNTraining", {"domain", "sizes", "threads", "out", "force"}),
    ("train-wl", "WLTraining", {"domain", "sizes", "validation_sizes", "out"}),
    ("evaluate", "ScalingSettings", {"policy", "planner", "domain", "tie_break", "out", "force"}),
])
def test_the_command_line_options_are_the_settings_fields(command, settings, extra):
    from stratpol.cli import build_parser
    from stratpol.evaluation import protocol
    from stratpol import method_settings

    kind = getattr(method_settings, settings, None) or getattr(protocol, settings)
    parser = build_parser()
    subparser = parser._subparsers._group_actions[0].choices[command]
    options = {action.dest for action in subparser._actions} - {"help"}
    assert options == {f.name for f in dataclasses.fields(kind)} | extra


def test_learn_options_override_only_what_is_given():
    from stratpol.cli import build_parser
    from stratpol.learning.settings import LearningSettings

    parser = build_parser()
    entry = LearningSettings(grammar="complexity-20", strategy="S2", dead_ends=True)
    given = parser.parse_args(["learn", "gripper", "--planner", "bfws", "--no-dead-ends"])
    assert from_options(entry, given) == LearningSettings(grammar="complexity-20", teacher="bfws", strategy="S2")
    assert from_options(entry, parser.parse_args(["learn", "gripper"])) == entry


def test_the_command_line_and_the_grid_load_no_neural_library():
    import subprocess
    import sys

    code = ("import sys; from stratpol.cli import build_parser; build_parser(); "
            "import stratpol.experiment.grid, stratpol.learning.wrapper, stratpol.methods; "
            "print(sorted(m for m in ('torch', 'wlplan', 'xgboost', 'neural') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == "[]", run.stderr
