"""Domains and their instance generators."""

from stratpol.generation.registry import DomainFolder, domain_folder, domain_names, find_domain, names_a_domain_file

__all__ = ["DomainFolder", "domain_folder", "domain_names", "find_domain", "names_a_domain_file"]
