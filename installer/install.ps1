# Install citemark for this user on Windows and register its native host with the browsers.
#   From a clone:  powershell -ExecutionPolicy Bypass -File installer\install.ps1 [citemark install flags, e.g. --browser edge]
param(
  [string]$Venv = "$env:LOCALAPPDATA\citemark\venv",
  [string]$Source = (Resolve-Path "$PSScriptRoot\..").Path,
  [string]$Python = "py"
)
$ErrorActionPreference = "Stop"
& $Python -3 -c "import sys; sys.exit(sys.version_info < (3, 11))"
if ($LASTEXITCODE -ne 0) { Write-Error "citemark needs Python 3.11 or newer"; exit 2 }
Write-Host "creating $Venv"
& $Python -3 -m venv $Venv
Write-Host "installing citemark from $Source"
& "$Venv\Scripts\python.exe" -m pip install --quiet --disable-pip-version-check $Source
& "$Venv\Scripts\citemark.exe" install @args
& "$Venv\Scripts\citemark.exe" doctor
Write-Host ""
Write-Host "citemark is installed: $Venv\Scripts\citemark.exe"
Write-Host "Load the extension: open chrome://extensions (or edge://extensions), turn on Developer mode,"
Write-Host "click 'Load unpacked' and choose $Source\extension"
