"""citemark's model training pipeline: each step is a module, run from the repository root as
``python -m train.<step>`` (see train/README.md). torch is needed here only."""
