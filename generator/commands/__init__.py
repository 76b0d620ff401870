"""Command modules: each defines `register(app)` and is listed in `generator.cli.COMMAND_MODULES`."""
