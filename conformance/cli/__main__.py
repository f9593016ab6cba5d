"""`python -m conformance.cli`: the phasecert command without its console script."""

import sys

from conformance.cli import main

sys.exit(main())
