"""Build hooks.

A wheel carries the top-level `templates/` folder inside the package: the design card keeps
`templates/` at the top of the repository; this copies it to `generator/templates/` in the
wheel, where `generator.core.resources.TEMPLATES` finds it. An editable install reads the
checkout's folder directly, so nothing is copied there.

The compiled random playouts (generator/games/_playout.c) are an optional extension: a
machine without a C compiler still installs deckgen, and the engines play in Python.
"""

import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class BuildPyWithTemplates(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return
        source = Path(__file__).resolve().parent / "templates"
        target = Path(self.build_lib) / "generator" / "templates"
        shutil.copytree(source, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))


setup(cmdclass={"build_py": BuildPyWithTemplates},
      ext_modules=[Extension("generator.games._playout", ["generator/games/_playout.c"], optional=True)])
