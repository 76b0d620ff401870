"""What changed between two versions of a deck (`compare`), and the page that shows it (`report`).

May import every stage below the build: `generator.validate` and what it may import.
"""
