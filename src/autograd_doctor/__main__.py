"""`python -m autograd_doctor`: the same as the `autograd-doctor` command."""

from autograd_doctor.integrations.cli import main

raise SystemExit(main())
