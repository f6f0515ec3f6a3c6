"""Child processes: calls and programs under time and memory limits (`limits`), worker pools
(`workers`), and the supervisor that keeps every command interruptible (`supervisor`)."""
