#!/usr/bin/env bash
# Creates the browser tests' virtual environment with Debian's python3 and installs the pinned
# requirements; reinstalls only when the requirements file changed.
set -euo pipefail
venv=$1
requirements=$2
stamp="$venv/.requirements"

if [ ! -x "$venv/bin/python" ]; then
    /usr/bin/python3 -m venv "$venv"
fi
if ! cmp -s "$requirements" "$stamp"; then
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$stamp"
fi
