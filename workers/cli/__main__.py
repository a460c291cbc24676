"""`python -m workers.cli`: the same as `stepforge`."""

import sys

from workers.cli.main import main

sys.exit(main())
