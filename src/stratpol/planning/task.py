"""PDDL domains, their instances and states, on top of pymimir.

One `Domain` is parsed once; every `Instance` of it shares that parsed domain, because pymimir
binds predicates (and so features and policies) to the domain object that created them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import pymimir
import pymimir.advanced.formalism as mimir_formalism

from stratpol.errors import InputError
from stratpol.planning import sexpr
from stratpol.planning.quiet import silenced_stdout

Atom = tuple[str, tuple[str, ...]]
"""A ground atom as (predicate, arguments), e.g. ("at", ("ball1", "rooma"))."""

# pymimir lists these as predicates of every domain, though the PDDL declares none of them: its
# implicit types, and PDDL's built-in equality (static, in :equality domains). The published
# vocabulary (tarski) has none of them, and dlplan cannot parse a feature over "=" back from text.
_IMPLICIT_PREDICATES = frozenset({"object", "number", "="})
_COMMENT = re.compile(r";[^\n]*")
_DOMAIN_REFERENCE = re.compile(r"\(\s*:domain\s+[^\s()]+\s*\)")


@dataclass(frozen=True)
class GroundAction:
    """A ground action by name and arguments; it compares equal across runs of the same instance."""

    name: str
    args: tuple[str, ...]
    _mimir: object = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return "(" + " ".join((self.name, *self.args)) + ")"


class Successor(NamedTuple):
    """One transition out of a state: the action, the state it leads to, and its cost."""

    action: GroundAction
    state: State
    cost: float


@dataclass(frozen=True)
class GoalLiteral:
    atom: Atom
    positive: bool = True


class State:
    """A state of one instance: its fluent atoms; static atoms live on the instance.

    States are interned by pymimir, so equality and hashing use the per-instance index.
    """

    __slots__ = ("instance", "index", "_mimir", "_atoms")

    def __init__(self, instance: Instance, mimir_state: object) -> None:
        self.instance = instance
        self.index: int = mimir_state.get_index()
        self._mimir = mimir_state
        self._atoms: frozenset[Atom] | None = None

    @property
    def atoms(self) -> frozenset[Atom]:
        """The fluent atoms true in this state."""
        if self._atoms is None:
            self._atoms = self.instance._fluent_atoms(self._mimir)
        return self._atoms

    @property
    def mimir_state(self) -> object:
        """pymimir's search state, for code that hands states to pymimir itself (its
        description-logic evaluator)."""
        return self._mimir

    def fluent_atom_indices(self) -> list[int]:
        """The planning core's indices of the fluent atoms true in this state (`Instance.fluent_atom`
        names them): the cheap way to look at a state many times."""
        return list(self._mimir.get_fluent_atoms())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.instance is self.instance and other.index == self.index

    def __hash__(self) -> int:
        return hash((id(self.instance), self.index))

    def __repr__(self) -> str:
        return f"State({self.instance.name}#{self.index}: {' '.join(sorted(atom_text(a) for a in self.atoms))})"


def atom_text(atom: Atom) -> str:
    """PDDL text of an atom: ("at", ("b", "r")) -> "(at b r)"."""
    return "(" + " ".join((atom[0], *atom[1])) + ")"


def _read_text(path: Path, what: str) -> str:
    if not path.is_file():
        raise InputError(f"{what} file not found", path)
    try:
        return path.read_text()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read {what} file ({error})", path) from None


def _parse_error(error: RuntimeError, path: Path | str) -> InputError:
    """Turn pymimir's multi-line parser message into one line naming the file and the problem."""
    text = str(error).strip()
    line = re.search(r"line (\d+)", text)
    detail = re.search(r"Error! (.*)", text)
    message = detail.group(1) if detail else text.splitlines()[0] if text else "cannot parse"
    where = f" (line {line.group(1)})" if line else ""
    return InputError(f"PDDL error{where}: {message.strip().rstrip(':')}", path)


class Domain:
    """A parsed PDDL domain; load its instances through it so that they share it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.text = _read_text(self.path, "domain")
        try:
            with silenced_stdout():
                self._mimir = pymimir.Domain(_with_typing_requirement(self.text) or self.path)
        except RuntimeError as error:
            raise _parse_error(error, self.path) from None
        self.name: str = self._mimir.get_name()
        self.types: tuple[str, ...] = _declared_types(self.text)
        hidden = _IMPLICIT_PREDICATES | set(self.types)
        self.predicates: dict[str, int] = {
            p.get_name(): p.get_arity() for p in self._mimir.get_predicates() if p.get_name() not in hidden
        }
        self.static_predicates: frozenset[str] = frozenset(
            p.get_name() for p in self._mimir.get_predicates() if p.is_static() and p.get_name() not in hidden
        )
        self.constants: tuple[str, ...] = tuple(c.get_name() for c in self._mimir.get_constants())
        self.action_names: tuple[str, ...] = tuple(a.get_name() for a in self._mimir.get_actions())
        advanced = self._mimir._advanced_domain
        self.derived_predicates: frozenset[str] = frozenset(p.get_name() for p in advanced.get_derived_predicates())
        # per action schema, the predicates its effects (conditional ones included) may add or
        # delete: a successor's atoms of every other fluent predicate are those of its source
        self.effect_predicates: dict[str, frozenset[str]] = {
            action.get_name(): frozenset(
                literal.get_atom().get_predicate().get_name()
                for effect in action.get_conditional_effects()
                for literal in effect.get_conjunctive_effect().get_literals())
            for action in advanced.get_actions()
        }
        self._action_names = {name.lower(): name for name in self.action_names}

    @property
    def mimir_domain(self) -> object:
        """pymimir's parsed domain (its advanced formalism), for code that builds pymimir objects
        over this domain (description-logic features)."""
        return self._mimir._advanced_domain

    def load_instance(self, path: str | Path) -> Instance:
        """Parse a problem file of this domain."""
        path = Path(path)
        return self._instance(_read_text(path, "problem"), path)

    def instance_from_text(self, text: str, name: str = "<text>") -> Instance:
        """Parse problem PDDL given as text (for example from a generator)."""
        return self._instance(text, name)

    def problem_objects(self, path: str | Path) -> tuple[str, ...]:
        """The objects of a problem file, parsed but not grounded: a cheap check of large files."""
        path = Path(path)
        try:
            with silenced_stdout():
                parsed = self._mimir._advanced_parser.parse_problem(
                    self._parsable(_read_text(path, "problem")), "", mimir_formalism.ParserOptions())
        except RuntimeError as error:
            raise _parse_error(error, path) from None
        return tuple(o.get_name() for o in parsed.get_objects())

    def _parsable(self, text: str) -> str:
        # pymimir's text parser fails on comments and compares names case-sensitively, while PDDL
        # is case-insensitive (its file parser lowercases). Blanking comments and lowercasing keep
        # the line numbers of its error messages. A problem may also name its domain differently
        # (public sets do: child-snack for childsnack); the parsed domain decides what it means.
        return _DOMAIN_REFERENCE.sub(f"(:domain {self.name})", _blank_comments(text).lower(), count=1)

    def _instance(self, text: str, source: Path | str) -> Instance:
        parsed = self._parsable(text)
        try:
            with silenced_stdout():
                problem = pymimir.Problem(self._mimir, parsed)
        except RuntimeError as error:
            raise _parse_error(error, source) from None
        return Instance(self, problem, text, source if isinstance(source, Path) else None)

    def __reduce__(self):
        # a worker process parses the file again, once per process and path
        return (_domain_in_this_process, (str(self.path),))

    def __repr__(self) -> str:
        return f"Domain({self.name!r}, {str(self.path)!r})"


_DOMAINS_IN_THIS_PROCESS: dict[str, Domain] = {}


def _domain_in_this_process(path: str) -> Domain:
    if path not in _DOMAINS_IN_THIS_PROCESS:
        _DOMAINS_IN_THIS_PROCESS[path] = Domain(path)
    return _DOMAINS_IN_THIS_PROCESS[path]


class Instance:
    """A PDDL problem of a domain: initial state, successors, goal test, ground actions."""

    def __init__(self, domain: Domain, problem: pymimir.Problem, text: str, path: Path | None) -> None:
        self.domain = domain
        self.path = path
        self.text = text
        self._problem = problem
        advanced = problem._advanced_problem
        context = problem._search_context
        self._applicable = context.get_applicable_action_generator()
        self._repository = context.get_state_repository()
        self._pddl_repositories = advanced.get_repositories()
        self._atom_of_index: dict[int, Atom] = {}
        self._action_of_index: dict[int, GroundAction] = {}
        self._mimir_objects: dict[str, object] | None = None  # name -> pymimir's object, made on first use
        self.name: str = problem.get_name()
        self.objects: tuple[str, ...] = tuple(o.get_name() for o in problem.get_objects())
        self._object_names = {name.lower(): name for name in (*domain.constants, *self.objects)}
        self.static_atoms: frozenset[Atom] = frozenset(
            _atom(a) for a in problem.get_initial_atoms(ignore_fluent=True, ignore_derived=True)
            if a.get_predicate().get_name() not in _IMPLICIT_PREDICATES
        )
        self.goal: tuple[GoalLiteral, ...] = tuple(sorted(
            (GoalLiteral(_atom(lit.get_atom()), lit.get_polarity()) for lit in problem.get_goal_condition()),
            key=lambda lit: (lit.atom, lit.positive),
        ))
        self._goal_condition = problem.get_goal_condition()
        self._simple_goal = not (
            list(advanced.get_derived_goal_literals()) or list(advanced.get_goal_numeric_constraints())
        )
        static_true = {a.get_index() for a in advanced.get_static_initial_atoms()}
        self._goal_unreachable = any(
            lit.get_polarity() != (lit.get_atom().get_index() in static_true)
            for lit in advanced.get_static_goal_literals()
        )
        self._goal_positive = frozenset(
            lit.get_atom().get_index() for lit in advanced.get_fluent_goal_literals() if lit.get_polarity()
        )
        self._goal_negative = frozenset(
            lit.get_atom().get_index() for lit in advanced.get_fluent_goal_literals() if not lit.get_polarity()
        )
        self._initial = State(self, problem.get_initial_state()._advanced_state)

    # -- states -------------------------------------------------------------------------------

    @property
    def source_name(self) -> str:
        """The problem file's name, or the problem's name for a problem given as text: public
        training sets reuse problem names across files (all 8-puzzle files are n-puzzle-3)."""
        return self.path.name if self.path is not None else self.name

    @property
    def initial_state(self) -> State:
        return self._initial

    @property
    def goal_atoms(self) -> frozenset[Atom]:
        """The atoms the goal asks to be true."""
        return frozenset(lit.atom for lit in self.goal if lit.positive)

    def is_goal(self, state: State) -> bool:
        if self._goal_unreachable:
            return False
        if not self._simple_goal:
            return self._goal_condition.holds(pymimir.State(state._mimir, self._problem))
        true = set(state._mimir.get_fluent_atoms())
        return self._goal_positive <= true and self._goal_negative.isdisjoint(true)

    @property
    def fluent_goal_count(self) -> int:
        """How many of the goal's literals are on fluent atoms (the ones a plan can change)."""
        return len(self._goal_positive) + len(self._goal_negative)

    def fluent_goals_met(self, state: State) -> int:
        """How many of the goal's fluent literals hold in `state`: a run's progress towards the goal."""
        true = set(state._mimir.get_fluent_atoms())
        return len(self._goal_positive & true) + len(self._goal_negative - true)

    def successors(self, state: State) -> list[Successor]:
        """All (action, next state, cost) for the actions applicable in `state`."""
        result = []
        source = state._mimir
        for mimir_action in self._applicable.generate_applicable_actions(source):
            target, cost = self._repository.get_or_create_successor_state(source, mimir_action, 0.0)
            result.append(Successor(self._action(mimir_action), State(self, target), cost))
        return result

    def applicable_actions(self, state: State) -> list[GroundAction]:
        return [self._action(a) for a in self._applicable.generate_applicable_actions(state._mimir)]

    def is_applicable(self, state: State, action: GroundAction) -> bool:
        """Whether the precondition of `action` holds in `state` (checked, not looked up)."""
        mimir_action = self._resolve(action)
        return pymimir.GroundAction(mimir_action, self._problem).is_applicable(
            pymimir.State(state._mimir, self._problem)
        )

    def apply(self, state: State, action: GroundAction) -> tuple[State, float]:
        """The state after `action` and its cost; the caller checks applicability first."""
        target, cost = self._repository.get_or_create_successor_state(state._mimir, self._resolve(action), 0.0)
        return State(self, target), cost

    def state_from_atoms(self, atoms: object) -> State:
        """The state whose fluent atoms are exactly `atoms` (static atoms come from the instance)."""
        ground = []
        for predicate, args in atoms:
            if predicate not in self.domain.predicates or predicate in self.domain.static_predicates:
                raise InputError(f"{predicate!r} is not a fluent predicate of domain {self.domain.name}")
            try:
                objects = [self._object(name) for name in args]
                ground.append(self._problem.new_ground_atom(self._problem.get_domain().get_predicate(predicate), objects))
            except (RuntimeError, KeyError, AssertionError, TypeError) as error:
                raise InputError(f"cannot build atom {atom_text((predicate, tuple(args)))}: {error}") from None
        fluent = mimir_formalism.FluentGroundAtomList([g._advanced_ground_atom for g in ground])
        state, _ = self._repository.get_or_create_state(fluent, [])
        return State(self, state)

    def action(self, name: str, args: tuple[str, ...] | list[str]) -> GroundAction:
        """The ground action `(name args...)` of this instance; raises InputError for unknown names."""
        # PDDL names are case-insensitive; pymimir keeps the case of the files
        action = GroundAction(
            self.domain._action_names.get(name.lower(), name),
            tuple(self._object_names.get(a.lower(), a) for a in args),
        )
        self._resolve(action)
        return action

    def object_index(self, name: str) -> int:
        """pymimir's index of an object or constant: the index its description-logic denotations
        use for it."""
        return self._object(name).get_index()

    # -- internals ------------------------------------------------------------------------------

    def _object(self, name: str) -> object:
        # pymimir's get_object and has_object walk every object of the problem: 0.4 ms a call
        # on 500 objects, which made replaying a plan of 1,200 steps cost seconds
        if self._mimir_objects is None:
            self._mimir_objects = {o.get_name(): o for o in self._problem.get_objects()}
        if name in self._mimir_objects:
            return self._mimir_objects[name]
        if name in self.domain.constants:
            return self._problem.get_domain().get_constant(name)
        raise KeyError(f"unknown object {name!r}")

    def _action(self, mimir_action: object) -> GroundAction:
        index = mimir_action.get_index()
        known = self._action_of_index.get(index)
        if known is None:
            wrapped = pymimir.GroundAction(mimir_action, self._problem)
            known = GroundAction(
                wrapped.get_action().get_name(),
                tuple(o.get_name() for o in wrapped.get_objects()),
                mimir_action,
            )
            self._action_of_index[index] = known
        return known

    def _resolve(self, action: GroundAction) -> object:
        if action._mimir is not None:
            known = self._action_of_index.get(action._mimir.get_index())
            if known is not None and known._mimir is action._mimir:
                return action._mimir
        domain = self._problem.get_domain()
        if not domain.has_action(action.name):
            raise InputError(f"unknown action {action.name!r} in {action}")
        schema = domain.get_action(action.name)
        if len(schema.get_parameters()) != len(action.args):
            raise InputError(f"action {action.name!r} takes {len(schema.get_parameters())} arguments: {action}")
        try:
            objects = [self._object(a) for a in action.args]
        except KeyError as error:
            raise InputError(f"{error.args[0]} in {action}") from None
        return self._problem.new_ground_action(schema, objects)._advanced_ground_action

    def fluent_atom(self, index: int) -> Atom:
        """The fluent atom with the planning core's index `index` (see `State.fluent_atom_indices`)."""
        if index not in self._atom_of_index:
            self._name_atoms([index])
        return self._atom_of_index[index]

    def _fluent_atoms(self, mimir_state: object) -> frozenset[Atom]:
        indices = list(mimir_state.get_fluent_atoms())
        missing = [i for i in indices if i not in self._atom_of_index]
        if missing:
            self._name_atoms(missing)
        return frozenset(self._atom_of_index[i] for i in indices)

    def _name_atoms(self, indices: list[int]) -> None:
        for i, ground in zip(indices, self._pddl_repositories.get_fluent_ground_atoms_from_indices(indices)):
            names = tuple(o.get_name() for o in ground.get_objects())
            self._atom_of_index[i] = (ground.get_predicate().get_name(), names)

    def __repr__(self) -> str:
        return f"Instance({self.name!r}, {len(self.objects)} objects)"


def _blank_comments(text: str) -> str:
    return _COMMENT.sub(lambda comment: " " * len(comment.group()), text)


def _with_typing_requirement(domain_text: str) -> str | None:
    """The domain text with `:typing` added to its requirements, or None if it has it already.

    IPC problem files of untyped domains often declare `b1 b2 - object`; pymimir rejects that
    unless the domain requires :typing, which changes nothing else for an untyped domain.
    The text is lowercased: pymimir's text parser compares names case-sensitively (its file
    parser lowercases), and problem texts are lowercased too.
    """
    try:
        block = sexpr.keyword_block(domain_text, ":requirements")
    except ValueError:
        return None
    if ":typing" in domain_text[block.start:block.end].lower():
        return None
    patched = domain_text[:block.end - 1] + " :typing" + domain_text[block.end - 1:]
    return _blank_comments(patched).lower()


def _declared_types(domain_text: str) -> tuple[str, ...]:
    """Type names of a domain (pymimir turns types into static predicates and forgets them)."""
    try:
        block = sexpr.keyword_block(domain_text, ":types")
    except ValueError:
        return ()
    (body,) = sexpr.parse(domain_text[block.start:block.end])
    names = dict.fromkeys(token for token in body[1:] if isinstance(token, str) and token != "-")
    return tuple(name for name in names if name not in _IMPLICIT_PREDICATES)


def _atom(mimir_atom: object) -> Atom:
    return (mimir_atom.get_predicate().get_name(), tuple(o.get_name() for o in mimir_atom.get_terms()))
