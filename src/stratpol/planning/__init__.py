"""The world: PDDL domains and instances, states, plans, search and Fast Downward."""

from stratpol.planning.task import Atom, Domain, GoalLiteral, GroundAction, Instance, State, Successor, atom_text

__all__ = ["Atom", "Domain", "GoalLiteral", "GroundAction", "Instance", "State", "Successor", "atom_text"]
