"""Neural add-ons of stratpol: relational GNN policies and WL transition models (extra `neural`)."""
