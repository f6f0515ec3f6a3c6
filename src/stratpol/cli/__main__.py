"""`python -m stratpol.cli`: the `stratpol` program."""

import sys

from stratpol.cli import console_main

sys.exit(console_main())
