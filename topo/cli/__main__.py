"""`python -m topo.cli`: the same as the `topo` console script."""

from topo.cli.main import main

main()
