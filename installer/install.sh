#!/usr/bin/env sh
# Install citemark for this user and register its native host with the browsers found.
#   From a clone:     ./installer/install.sh
#   Options:          CITEMARK_HOME=~/.local/share/citemark/venv  CITEMARK_SOURCE=path-or-pip-spec
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
venv=${CITEMARK_HOME:-"${XDG_DATA_HOME:-$HOME/.local/share}/citemark/venv"}
source=${CITEMARK_SOURCE:-$here}
python=${PYTHON:-python3}

"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "citemark needs Python 3.11 or newer ($python is $("$python" --version 2>&1))" >&2; exit 2; }
echo "creating $venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --upgrade pip
echo "installing citemark from $source"
"$venv/bin/python" -m pip install --quiet "$source"
"$venv/bin/citemark" install
"$venv/bin/citemark" doctor || true
cat <<MSG

citemark is installed: $venv/bin/citemark
Add it to your PATH, e.g.:  ln -s "$venv/bin/citemark" ~/.local/bin/citemark

Load the browser extension:
  Chrome / Chromium / Edge / Brave / Vivaldi: open chrome://extensions, turn on Developer mode,
    click "Load unpacked" and choose $here/extension
  Firefox: open about:debugging#/runtime/this-firefox, "Load Temporary Add-on…",
    and choose $here/extension/manifest.json
MSG
