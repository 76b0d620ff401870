"""Print the shell commands of README's "Quick start" section, one per line, in order.

CI runs exactly these, so the README cannot drift from what is tested.
"""

import re
import sys

text = open(sys.argv[1], encoding="utf-8").read()
section = re.search(r"^## Quick start\n(.*?)(?=^## )", text, re.S | re.M)
if section is None:
    sys.exit("README has no '## Quick start' section")
for block in re.findall(r"```sh\n(.*?)```", section.group(1), re.S):
    print(" ".join(line.strip() for line in block.strip().splitlines()))
