import sys

from bpeviz.cli import main

sys.exit(main())
