"""The IPC 2023 learning track as a benchmark: rule policies, rule policies as sketches and
LAMA-first on its test problems under the competition's limits (`runs`), and their coverage
beside what the competition and the papers after it report (`anchors`, `report`)."""
