"""Learning rule policies: hitting sets, GENEX, WRAPPER."""
