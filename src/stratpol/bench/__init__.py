"""Benchmarks: planner speeds (`planning`), the GENEX paper's sets with its published numbers
(`paper_sets`, `published`, `learning`), learned policies' run speed (`execution`) and the IPC 2023
learning track (`ipc2023`)."""
