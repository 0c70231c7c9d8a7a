"""Running a study: ``python -m harness.run study=<name> [overrides]`` and everything it calls.

One episode's path, in order (each step one module, none doubling back):

1. ``__main__``    compose and validate the config (Hydra), refuse bad input before anything runs
2. ``plan``        the world, arms, models and faults from the composed config, and the paired schedule
3. ``study``       the run folder: resume checks, manifest, then one process or forked workers
4. ``registries``  the run's contract registries, built once, served per task group
5. ``process``     episodes in one process (budget, caps, progress), or ``workers``: forked processes
6. ``episode``     one episode: the arm's tool-result stream, the agent loop, the score, the record

What those steps consult, each named for what it holds:

- ``schedule``     which (task, fault) a study runs, the pairing and the trials' sampling draws
- ``shared``       what step 5 needs in one process or forked: completers, spend and budget, pending work, progress
- ``notices``      where something plugged in does nothing, said out loud (or, with ``strict``, refused)
- ``manifest``     what ran, from which code and config; ``rundir`` leaves a refused run's folder as it was
- ``stopping``     SIGINT/SIGTERM: finished episodes stay recorded
- ``fingerprint``  hashes of what decides a study's episodes (``python -m harness.verify``)
- ``sweep``        the Hydra callback that merges a sweep's jobs into one analysis
- ``grid``         scripted policies on episodes without litellm or a run folder (tests, tables)
- ``sizes``        each study's episode count, planned and not run (``make studies``)

Importing this package imports nothing: the modules are imported by what uses them.
"""
