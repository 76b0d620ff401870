"""The commands behind `deckgen`, one module per group; each `register(app)` adds its commands
to the typer app, and imports the library it calls inside the command, when it runs."""
