"""Build hook: a wheel carries the top-level `templates/` folder inside the package.

The design card keeps `templates/` at the top of the repository; this copies it to
`generator/templates/` in the wheel, where `generator.resources.TEMPLATES` finds it. An
editable install reads the checkout's folder directly, so nothing is copied there.
"""

import shutil
from pathlib import Path

from setuptools import setup
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


setup(cmdclass={"build_py": BuildPyWithTemplates})
