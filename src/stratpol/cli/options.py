"""Option types and arguments several commands share: numbers in range, size ranges, a domain by
name or file, a policy file read in a domain's vocabulary."""

from __future__ import annotations

import argparse

from stratpol.errors import InputError
from stratpol.parameters import at_least, option_type, positive, size_range, within

positive_int = option_type(int, at_least(1))
seconds = option_type(float, positive)
sketch_width = option_type(int, within(0, 3, True, True))  # a width bound of IW: IW(3) is already cubic in the atoms


def sizes(text: str) -> range:
    """An option's "N" or "A:B" as a range of sizes."""
    try:
        return size_range(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def read_policy(path: str, vocabulary):
    """The policy file at `path` (readable or dlplan format) with its features in `vocabulary`."""
    from stratpol.policy.files import read_policy_file

    return read_policy_file(path, vocabulary.factory)


def rule_policy(path: str, vocabulary, *args, **kwargs):
    """A RulePolicy of the policy file at `path`; a feature that does not read in `vocabulary` is
    the user's mistake, named with the file."""
    from stratpol.evaluation import RulePolicy

    try:
        return RulePolicy(read_policy(path, vocabulary), vocabulary, *args, **kwargs)
    except ValueError as error:
        raise InputError(str(error), path) from None
